/**
 * Users as the API and pages see them, the profile, and the admin's user management.
 * Pages and /api call these same functions.
 */
import { ApiError } from "~/lib/api.server";
import { getDb, type DB } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { PERMISSION_GROUPS, userTypeOf, type Access } from "~/lib/permissions";
import { getAccess, type Actor } from "~/services/permissions.server";
import { staffWrite } from "./writes.server";
import {
  assignRole,
  countSuperAdmins,
  directPermissionsOfUser,
  findPermission,
  findRole,
  grantPermission,
  listPermissions,
  listRoles,
  revokePermission,
  revokeRole,
  roleNamesOfUsers,
  rolesOfUser,
} from "~/models/access.server";
import {
  deleteUserRow,
  findUserByEmail,
  findUserById,
  findUserByUsername,
  getPasswordHash,
  insertUser,
  listUsers,
  countUsersByType,
  updateUserRow,
  type User,
  type UserTypeFilter,
} from "~/models/user.server";
import { countAvatarUsers, setUploadOwner } from "~/models/upload.server";
import { AVATAR_MAX_BYTES, MESSAGES } from "~/schemas/auth";
import {
  ADMIN_MESSAGES,
  BATCH_MAX,
  USERS_PAGE_SIZE,
  type AdminCreateUserInput,
  type AdminUpdateUserInput,
  type PermissionDialogData,
  type RoleJson,
} from "~/schemas/admin-users";
import type { UserUpdate } from "../../db/schema";
import { hashPassword } from "./crypto.server";
import { startEmailChange, userConflict as conflict, writingUser, type AccountHolderProof } from "./auth.server";
import type { Language } from "~/i18n/languages";
import { checkCurrentPassword, setPassword } from "./passwords.server";
import { loadSettings, siteBaseUrl } from "./site-settings.server";
import { limitAvatarUploads } from "./rate-limit.server";
import {
  findIssuedUpload,
  isUploadedFile,
  removeUpload,
  removeUploadOwnedBy,
  storeImage,
  withMultipart,
  type MultipartLimits,
  type StoredUpload,
} from "./uploads.server";
import { isForeignKeyViolation } from "~/lib/db-errors.server";
import { serializeOn } from "~/models/sql-dialect.server";

/** The user object of docs/product/storefront.md 3 (API answers). */
export type UserJson = {
  id: number;
  email: string;
  username: string;
  is_admin: boolean;
  emailVerified: boolean;
  roles: RoleJson[];
  avatar_url: string | null;
  phone: string | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  last_login_ip: string | null;
  firstName: string | null;
  lastName: string | null;
  pendingEmail?: string | null;
  userType?: string;
  permissions?: RoleJson[];
};

export function toUserJson(user: User, roles: RoleJson[], extra: Partial<UserJson> = {}): UserJson {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    is_admin: user.isAdmin,
    emailVerified: user.emailVerified,
    roles,
    avatar_url: user.avatarUrl,
    phone: user.phone,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    last_login_at: user.lastLoginAt,
    last_login_ip: user.lastLoginIp,
    firstName: user.firstName,
    lastName: user.lastName,
    ...extra,
  };
}

export async function userJsonWithAccess(user: User, access?: Access): Promise<UserJson> {
  const resolved = access ?? (await getAccess(user));
  return toUserJson(user, resolved.roles, {
    pendingEmail: user.pendingEmail,
    userType: resolved.userType,
    permissions: resolved.directPermissions,
  });
}

async function assertUsernameFree(username: string, exceptId?: number) {
  const existing = await findUserByUsername(getDb(), username);
  if (existing && existing.id !== exceptId) throw conflict("username");
}

async function assertEmailFree(email: string, exceptId?: number) {
  const existing = await findUserByEmail(getDb(), email);
  if (existing && existing.id !== exceptId) throw conflict("email");
}

// ---------------------------------------------------------------- avatars

const AVATAR_UPLOAD_LIMITS: MultipartLimits = {
  maxFileBytes: AVATAR_MAX_BYTES,
  maxFiles: 1,
  messages: { fileTooLarge: MESSAGES.avatarTooLarge, tooManyFiles: MESSAGES.avatarOneFile },
};

/**
 * Reads an avatar image from a multipart request (the file field `field`) and stores it,
 * issued to `user`. It becomes the avatar only when set (PUT /api/users/me avatarUrl, or
 * replaceAvatar); an upload never set is removed by housekeeping within two hours. Each
 * upload is counted against the user's limit (429 past it).
 */
export async function receiveAvatarUpload(request: Request, user: User, field: string): Promise<StoredUpload> {
  await limitAvatarUploads(user.id);
  return withMultipart(request, AVATAR_UPLOAD_LIMITS, async (form) => {
    const file = form.get(field);
    const notImage = () => new ApiError(400, MESSAGES.avatarNotImage, "VALIDATION_ERROR", [{ field, message: MESSAGES.avatarNotImage }]);
    if (!isUploadedFile(file) || file.size === 0) throw notImage();
    if (file.type && !file.type.startsWith("image/")) throw notImage();
    return storeImage(file, "avatars", user.id, { notImage: MESSAGES.avatarNotImage, tooLarge: MESSAGES.avatarTooLarge }, AVATAR_MAX_BYTES);
  });
}

/** The profile page's avatar form: store the image and make it the avatar in one step. */
export async function replaceAvatar(request: Request, user: User, field: string, ip: string): Promise<User> {
  const upload = await receiveAvatarUpload(request, user, field);
  return (await updateOwnProfile(user, { avatarUrl: upload.url }, ip)).user;
}

type AvatarChange = { url: string | null; upload: StoredUpload | null };

/**
 * The site's own absolute address of a file (PUBLIC_URL or the site_url setting, as a
 * client that shows the avatar may have made it) becomes its path; any other value is
 * left as it is (and an outside URL is then refused like before).
 */
async function ownSitePath(value: string | null): Promise<string | null> {
  if (!value || !/^https?:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const origins = new Set([new URL(getEnv().PUBLIC_URL).origin, new URL(siteBaseUrl(await loadSettings())).origin]);
  return origins.has(url.origin) && !url.search && !url.hash ? url.pathname : value;
}

/**
 * Checks a new avatar value for `target`: undefined when it does not change. Accepted: an
 * empty value (no avatar), the current value, or an avatar upload issued to one of
 * `owners`. Anything else, outside URLs included (they would tell another site who looks
 * at the page), answers 400 naming `field`.
 */
async function checkAvatarChange(
  target: User,
  value: string | null | undefined,
  owners: number[],
  field: string,
): Promise<AvatarChange | undefined> {
  if (value === undefined) return undefined;
  const next = await ownSitePath(value?.trim() || null);
  if (next === target.avatarUrl) return undefined;
  if (next === null) return { url: null, upload: null };
  const upload = await findIssuedUpload(next);
  if (!upload || upload.kind !== "avatars" || upload.ownerId === null || !owners.includes(upload.ownerId)) {
    throw new ApiError(400, MESSAGES.avatarNotIssued, "VALIDATION_ERROR", [{ field, message: MESSAGES.avatarNotIssued }]);
  }
  return { url: next, upload };
}

/**
 * After a new avatar is saved: the upload belongs to the user who shows it, and the
 * previous avatar's file is deleted when it was issued to this user and nobody shows it.
 */
async function settleAvatarChange(target: User, previousUrl: string | null, change: AvatarChange): Promise<void> {
  const db = getDb();
  if (change.upload && change.upload.ownerId !== target.id) await setUploadOwner(db, change.upload.id, target.id);
  if (previousUrl && (await countAvatarUsers(db, previousUrl)) === 0) await removeUploadOwnedBy(previousUrl, target.id);
}

// ---------------------------------------------------------------- profile

export type ProfileChanges = {
  username?: string;
  email?: string;
  phone?: string | null;
  avatarUrl?: string | null;
} & AccountHolderProof;

/**
 * Updates the user's own profile. A new e-mail address needs the account holder's proof
 * (the current password, or a code mailed to the current address: startEmailChange) and
 * is not applied at once: it waits in pending_email until the code mailed to it is
 * entered. The answer is the same whether or not the new address has an account (its
 * owner is told instead). A refused change saves nothing of the request.
 */
export async function updateOwnProfile(
  user: User,
  changes: ProfileChanges,
  ip: string,
  /** the language of the code mail (the reader's) */
  language?: Language,
): Promise<{ user: User; usernameChanged: boolean; emailChangePending: boolean }> {
  const db = getDb();
  const update: Omit<UserUpdate, "id"> = {};
  let usernameChanged = false;
  if (changes.username !== undefined && changes.username !== user.username) {
    await assertUsernameFree(changes.username, user.id);
    update.username = changes.username;
    usernameChanged = true;
  }
  if (changes.phone !== undefined && (changes.phone || null) !== user.phone) update.phone = changes.phone || null;
  const avatar = await checkAvatarChange(user, changes.avatarUrl, [user.id], "avatarUrl");
  if (avatar) update.avatar_url = avatar.url;
  const newEmail = changes.email !== undefined && changes.email !== user.email.toLowerCase() ? changes.email : undefined;
  if (newEmail) {
    // proven, counted (429 over the limits) and mailed before anything is saved
    await startEmailChange(
      user,
      newEmail,
      ip,
      { currentPassword: changes.currentPassword, currentEmailCode: changes.currentEmailCode },
      language,
    );
    update.pending_email = newEmail;
  }
  let updated = user;
  if (Object.keys(update).length > 0) {
    updated = (await writingUser(() => updateUserRow(db, user.id, update))) ?? user;
  }
  if (avatar) await settleAvatarChange(updated, user.avatarUrl, avatar);
  return { user: updated, usernameChanged, emailChangePending: Boolean(newEmail) };
}

export async function cancelEmailChange(user: User): Promise<User> {
  return (await updateUserRow(getDb(), user.id, { pending_email: null })) ?? user;
}

/**
 * Changes the password (the current one is required when the account has one). Wrong
 * current passwords count as failed logins of the account (429 once it is throttled).
 * Every other browser session ends, every refresh token is revoked and older access
 * tokens stop working.
 */
export async function changeOwnPassword(
  user: User,
  input: { currentPassword: string; newPassword: string },
  context: { ip: string; keepSessionHash?: string },
): Promise<User> {
  const hash = await getPasswordHash(getDb(), user.id);
  if (hash) await checkCurrentPassword(user, hash, input.currentPassword, context.ip);
  return setPassword(user.id, input.newPassword, { keepSessionHash: context.keepSessionHash });
}

// ---------------------------------------------------------------- admin: users

export type AdminUserList = {
  items: UserJson[];
  totalItems: number;
  totalPages: number;
  currentPage: number;
  limit: number;
  counts: { all: number; admin: number; regular: number };
};

export async function listUsersForAdmin(input: {
  q?: string;
  userType?: UserTypeFilter;
  page?: number;
  limit?: number;
}): Promise<AdminUserList> {
  const db = getDb();
  const limit = Math.min(Math.max(input.limit ?? USERS_PAGE_SIZE, 1), 100);
  const counts = await countUsersByType(db);
  const {
    items,
    totalItems,
    page: currentPage,
  } = await listUsers(db, {
    q: input.q,
    type: input.userType ?? "all",
    page: input.page ?? 1,
    limit,
  });
  const totalPages = Math.max(1, Math.ceil(totalItems / limit));
  const roles = await roleNamesOfUsers(
    db,
    items.map((u) => u.id),
  );
  return {
    items: items.map((user) => {
      const userRoles = roles.get(user.id) ?? [];
      return toUserJson(user, userRoles, {
        userType: userTypeOf(
          userRoles.map((r) => r.name),
          user.isAdmin,
        ),
      });
    }),
    totalItems,
    totalPages,
    currentPage,
    limit,
    counts,
  };
}

export async function getUserForAdmin(id: number): Promise<{ user: User; json: UserJson; access: Access }> {
  const user = await findUserById(getDb(), id);
  if (!user) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
  const access = await getAccess(user);
  return { user, access, json: await userJsonWithAccess(user, access) };
}

/**
 * Who may change, reset or delete whom: a super admin anyone; any other holder of a
 * user.* permission only users without back-office access (else one admin could take
 * over another's account, or a super admin's).
 */
async function assertMayManage(actor: Access, target: User) {
  if (actor.userType === "super_admin") return;
  const targetAccess = await getAccess(target);
  if (targetAccess.hasAdminAccess) {
    throw new ApiError(
      403,
      targetAccess.userType === "super_admin" ? ADMIN_MESSAGES.cannotManageSuperAdmin : ADMIN_MESSAGES.cannotManageAdmin,
      "FORBIDDEN",
    );
  }
}

/** Roles, direct permissions and the is_admin flag are the super admin's to hand out. */
function assertSuperAdmin(actor: Access, message: string) {
  if (actor.userType !== "super_admin") throw new ApiError(403, message, "FORBIDDEN");
}

async function resolveRoleIds(roleIds: number[], actor: Access): Promise<RoleJson[]> {
  const roles = await listRoles(getDb());
  const chosen: RoleJson[] = [];
  for (const id of new Set(roleIds)) {
    const role = roles.find((r) => r.id === id);
    if (!role || !["super_admin", "admin"].includes(role.name)) {
      throw new ApiError(400, ADMIN_MESSAGES.invalidRole, "VALIDATION_ERROR", [{ field: "roleIds", message: ADMIN_MESSAGES.invalidRole }]);
    }
    // handing out roles is the super admin's alone, at creation as afterwards
    if (actor.userType !== "super_admin") {
      throw new ApiError(
        403,
        role.name === "super_admin" ? ADMIN_MESSAGES.onlySuperAdminGrants : ADMIN_MESSAGES.onlySuperAdminAssignsRoles,
        "FORBIDDEN",
      );
    }
    chosen.push(role);
  }
  return chosen;
}

export const createUserByAdmin = staffWrite(
  { requires: { permission: "user.create" }, stales: [] },
  async (input: AdminCreateUserInput, actor: Actor): Promise<UserJson> => {
    const db = getDb();
    const roles = await resolveRoleIds(input.roleIds ?? [], actor.access);
    await assertUsernameFree(input.username);
    await assertEmailFree(input.email);
    const passwordHash = await hashPassword(input.password);
    const user = await writingUser(() =>
      db.transaction().execute(async (trx) => {
        const created = await insertUser(trx, {
          username: input.username,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          isAdmin: roles.length > 0,
          // the administrator vouches for the address
          emailVerified: true,
        });
        for (const role of roles) {
          await assignRole(trx, { userId: created.id, roleId: role.id, expiresAt: null, assignedBy: actor.user.id });
        }
        return created;
      }),
    );
    return toUserJson(user, roles);
  },
);

export type BatchResult = { success: number; failed: number; created: UserJson[]; errors: Array<{ index: number; error: string }> };

/** Creates many users; each failure is reported with its index (0-based) and reason. */
export const batchCreateUsers = staffWrite(
  { requires: { permission: "user.create" }, stales: [] },
  async (inputs: Array<AdminCreateUserInput | { error: string }>, actor: Actor): Promise<BatchResult> => {
    // the one place the batch size is counted (the page's lines and /api's entries alike)
    if (inputs.length === 0)
      throw new ApiError(400, ADMIN_MESSAGES.batchEmpty, "VALIDATION_ERROR", [{ field: "users", message: ADMIN_MESSAGES.batchEmpty }]);
    if (inputs.length > BATCH_MAX) {
      throw new ApiError(400, ADMIN_MESSAGES.batchTooMany, "VALIDATION_ERROR", [{ field: "users", message: ADMIN_MESSAGES.batchTooMany }]);
    }
    const result: BatchResult = { success: 0, failed: 0, created: [], errors: [] };
    for (const [index, input] of inputs.entries()) {
      if ("error" in input) {
        result.failed += 1;
        result.errors.push({ index, error: input.error });
        continue;
      }
      try {
        result.created.push(await createUserByAdmin(input, actor));
        result.success += 1;
      } catch (error) {
        result.failed += 1;
        result.errors.push({ index, error: error instanceof ApiError ? error.message : "Could not create this user" });
      }
    }
    return result;
  },
);

/**
 * Applies only the fields that differ from the stored user. Returns changed=false
 * (message 'no changes made') when nothing differs.
 */
export const updateUserByAdmin = staffWrite(
  { requires: { permission: "user.edit" }, stales: [] },
  async (id: number, input: AdminUpdateUserInput, actor: Actor): Promise<{ changed: boolean; user: UserJson }> => {
    const db = getDb();
    const target = await findUserById(db, id);
    if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
    await assertMayManage(actor.access, target);
    const update: Omit<UserUpdate, "id"> = {};
    if (input.username !== undefined && input.username !== target.username) {
      await assertUsernameFree(input.username, id);
      update.username = input.username;
    }
    if (input.email !== undefined && input.email !== target.email.toLowerCase()) {
      await assertEmailFree(input.email, id);
      update.email = input.email;
      update.pending_email = null;
    }
    if (input.phone !== undefined && (input.phone || null) !== target.phone) update.phone = input.phone || null;
    // the admin may set an avatar uploaded by the user or by themselves
    const avatar = await checkAvatarChange(target, input.avatar_url, [target.id, actor.user.id], "avatar_url");
    if (avatar) update.avatar_url = avatar.url;
    if (input.is_admin !== undefined && input.is_admin !== target.isAdmin) {
      assertSuperAdmin(actor.access, ADMIN_MESSAGES.onlySuperAdminSetsAdmin);
      if (id === actor.user.id && !input.is_admin) {
        throw new ApiError(400, ADMIN_MESSAGES.cannotDemoteSelf, "VALIDATION_ERROR");
      }
      update.is_admin = input.is_admin ? 1 : 0;
    }
    if (Object.keys(update).length === 0) {
      return { changed: false, user: await userJsonWithAccess(target) };
    }
    const updated = (await writingUser(() => updateUserRow(db, id, update)))!;
    if (avatar) await settleAvatarChange(updated, target.avatarUrl, avatar);
    return { changed: true, user: await userJsonWithAccess(updated) };
  },
);

export const resetPasswordByAdmin = staffWrite(
  { requires: { permission: "user.edit" }, stales: [] },
  async (id: number, newPassword: string, actor: Actor): Promise<void> => {
    const target = await findUserById(getDb(), id);
    if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
    await assertMayManage(actor.access, target);
    await setPassword(target.id, newPassword);
  },
);

export const deleteUserByAdmin = staffWrite(
  { requires: { permission: "user.delete" }, stales: [] },
  async (id: number, actor: Actor): Promise<void> => {
    const db = getDb();
    const target = await findUserById(db, id);
    if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
    if (target.id === actor.user.id) throw new ApiError(400, ADMIN_MESSAGES.cannotDeleteSelf, "VALIDATION_ERROR");
    await assertMayManage(actor.access, target);
    const targetAccess = await getAccess(target);
    const avatar = await findIssuedUpload(target.avatarUrl);
    try {
      await db.transaction().execute(async (trx) => {
        if (targetAccess.userType === "super_admin") await assertNotLastSuperAdmin(trx);
        if (!(await deleteUserRow(trx, id))) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new ApiError(409, ADMIN_MESSAGES.hasLinkedData, "CONFLICT");
      }
      throw error;
    }
    // the avatar goes with its user
    if (avatar?.ownerId === target.id && (await countAvatarUsers(db, avatar.url)) === 0) await removeUpload(avatar);
  },
);

// ---------------------------------------------------------------- admin: roles and permissions

export async function getUserRoles(id: number) {
  const user = await findUserById(getDb(), id);
  if (!user) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
  return rolesOfUser(getDb(), id);
}

export async function getUserDirectPermissions(id: number) {
  const user = await findUserById(getDb(), id);
  if (!user) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
  return directPermissionsOfUser(getDb(), id);
}

/** The user and the role an assignment names: 404 with the one that is missing. */
async function userAndRole(db: DB, userId: number, roleId: number) {
  const target = await findUserById(db, userId);
  if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
  const role = await findRole(db, { id: roleId });
  if (!role) throw new ApiError(404, ADMIN_MESSAGES.roleNotFound, "NOT_FOUND");
  return { target, role };
}

export const assignRoleToUser = staffWrite(
  { requires: { superAdmin: true }, refusal: ADMIN_MESSAGES.onlySuperAdminAssignsRoles, stales: [] },
  async (userId: number, roleId: number, expiresAt: string | null, actor: Actor): Promise<void> => {
    const db = getDb();
    await userAndRole(db, userId, roleId);
    if (expiresAt && expiresAt <= new Date().toISOString()) {
      throw new ApiError(400, ADMIN_MESSAGES.expiryInPast, "VALIDATION_ERROR", [
        { field: "expiresAt", message: ADMIN_MESSAGES.expiryInPast },
      ]);
    }
    await assignRole(db, { userId, roleId, expiresAt, assignedBy: actor.user.id });
  },
);

export const revokeRoleFromUser = staffWrite(
  { requires: { superAdmin: true }, refusal: ADMIN_MESSAGES.onlySuperAdminAssignsRoles, stales: [] },
  async (userId: number, roleId: number, actor: Actor): Promise<void> => {
    const db = getDb();
    const { role } = await userAndRole(db, userId, roleId);
    const held = (await rolesOfUser(db, userId)).some((r) => r.id === roleId);
    if (!held) throw new ApiError(404, ADMIN_MESSAGES.roleNotHeld, "NOT_FOUND");
    await db.transaction().execute(async (trx) => {
      if (role.name === "super_admin") await assertNotLastSuperAdmin(trx);
      if (role.name === "super_admin" && userId === actor.user.id) {
        throw new ApiError(400, ADMIN_MESSAGES.cannotDemoteSelf, "VALIDATION_ERROR");
      }
      await revokeRole(trx, userId, roleId);
    });
  },
);

/**
 * Before a super administrator is deleted or loses the role, inside that write's
 * transaction: another must remain. Such writes take turns (decision 030), so two super
 * administrators removing each other at the same moment cannot leave none.
 */
async function assertNotLastSuperAdmin(trx: DB): Promise<void> {
  await serializeOn(trx, "super-admins");
  if ((await countSuperAdmins(trx)) <= 1) throw new ApiError(400, ADMIN_MESSAGES.lastSuperAdmin, "VALIDATION_ERROR");
}

export const grantPermissionToUser = staffWrite(
  { requires: { superAdmin: true }, refusal: ADMIN_MESSAGES.onlySuperAdminGrantsPermissions, stales: [] },
  async (userId: number, permissionId: number, actor: Actor): Promise<void> => {
    const db = getDb();
    const target = await findUserById(db, userId);
    if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
    if (!(await findPermission(db, permissionId))) throw new ApiError(404, ADMIN_MESSAGES.permissionNotFound, "NOT_FOUND");
    const access = await getAccess(target);
    if (!access.hasAdminAccess) {
      throw new ApiError(400, ADMIN_MESSAGES.ordinaryUsersNeedNoPermissions, "VALIDATION_ERROR");
    }
    await grantPermission(db, { userId, permissionId, grantedBy: actor.user.id });
  },
);

export const revokePermissionFromUser = staffWrite(
  { requires: { superAdmin: true }, refusal: ADMIN_MESSAGES.onlySuperAdminGrantsPermissions, stales: [] },
  async (userId: number, permissionId: number, _actor: Actor): Promise<void> => {
    const db = getDb();
    const target = await findUserById(db, userId);
    if (!target) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
    if (!(await findPermission(db, permissionId))) throw new ApiError(404, ADMIN_MESSAGES.permissionNotFound, "NOT_FOUND");
    if (!(await revokePermission(db, userId, permissionId))) {
      throw new ApiError(404, ADMIN_MESSAGES.permissionNotHeld, "NOT_FOUND");
    }
  },
);

export async function listAllRoles(): Promise<RoleJson[]> {
  return listRoles(getDb());
}

export async function listAllPermissions(): Promise<RoleJson[]> {
  return listPermissions(getDb());
}

/** What the permission dialog shows for one user (plain data, ready for a page). */
export async function getPermissionDialogData(userId: number): Promise<PermissionDialogData> {
  const db = getDb();
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, "NOT_FOUND");
  const access = await getAccess(user);
  const held = await rolesOfUser(db, userId);
  const direct = new Set(access.directPermissions.map((p) => p.id));
  const all = await listPermissions(db);
  return {
    user: { id: user.id, username: user.username, userType: access.userType, hasAdminAccess: access.hasAdminAccess },
    roles: (await listRoles(db)).map((role) => {
      const holding = held.find((r) => r.id === role.id);
      return { ...role, held: Boolean(holding), expiresAt: holding?.expiresAt ?? null };
    }),
    permissionGroups: access.hasAdminAccess
      ? PERMISSION_GROUPS.map((group) => ({
          ...group,
          permissions: all.filter((p) => p.name.startsWith(group.prefix)).map((p) => ({ ...p, held: direct.has(p.id) })),
        }))
      : null,
  };
}

/** User counts of the admin dashboard. */
export async function countUsersForDashboard(): Promise<{ all: number; admin: number; regular: number }> {
  return countUsersByType(getDb());
}
