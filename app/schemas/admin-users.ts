/** Admin user-management inputs, limits and messages (spec/admin.md 5, 8, 9). */
import { z } from "zod";
import { emailSchema, MESSAGES, PASSWORD_MAX, phoneSchema, usernameSchema } from "./auth";

export const USERS_PAGE_SIZE = 10;
export const PAGE_WINDOW = 5;
/** Most users one batch may create (one request stays short). */
export const BATCH_MAX = 200;

/** Seeing the user list = any of these (spec/admin.md 6: manage users). */
export const USER_MANAGEMENT_PERMISSIONS = ["user.create", "user.edit", "user.delete"] as const;

export const USER_TYPE_FILTERS = ["all", "admin", "regular"] as const;
export type UserTypeFilterValue = (typeof USER_TYPE_FILTERS)[number];

export const ADMIN_MESSAGES = {
  noChanges: "no changes made",
  saveConfirm: "Are you sure you want to save these changes? Modified fields take effect immediately",
  confirmRequired: "Please confirm before saving",
  passwordMin: "密码长度至少6位字符",
  passwordMismatch: "The two passwords do not match",
  passwordResetConfirm: "Reset this user's password? It takes effect immediately.",
  batchEmpty: "please enter user data",
  batchFormat: "invalid user data format",
  userNotFound: "User not found or already deleted",
  roleNotFound: "Role not found",
  permissionNotFound: "Permission not found",
  roleNotHeld: "The user does not hold this role",
  permissionNotHeld: "The user does not hold this permission",
  invalidRole: "Roles can only be super_admin or admin",
  onlySuperAdminGrants: "Only a super admin can grant the super_admin role",
  onlySuperAdminAssignsRoles: "Only a super admin can assign roles",
  cannotManageSuperAdmin: "Only a super admin can change a super admin",
  cannotDeleteSelf: "You cannot delete your own account",
  cannotDemoteSelf: "You cannot remove your own administrator access",
  lastSuperAdmin: "The last super admin cannot be removed",
  hasLinkedData: "The user still has linked data and cannot be deleted",
  expiryInPast: "The expiry time must be in the future",
  ordinaryUsersNeedNoPermissions: "Ordinary users do not need management permissions.",
  loadFailed: "获取用户数据失败",
  updateFailed: "更新用户失败",
  resetFailed: "重置密码失败",
  invalidUserData: "接收到无效的用户数据结构",
  batchTooMany: `At most ${BATCH_MAX} users per batch`,
  created: "User created successfully",
  createFailed: "Failed to create user",
  updated: "User updated successfully",
  deleted: "User deleted successfully",
  deleteFailed: "Failed to delete user",
  passwordReset: "Password reset successfully",
  roleAssigned: "Role assigned successfully",
  roleAssignFailed: "Failed to assign role",
  roleRevoked: "Role revoked successfully",
  roleRevokeFailed: "Failed to revoke role",
  permissionGranted: "Permission granted successfully",
  permissionGrantFailed: "Failed to grant permission",
  permissionRevoked: "Permission revoked successfully",
  permissionRevokeFailed: "Failed to revoke permission",
  neverLoggedIn: "never logged in",
  superAdminHoldsAll: "Super admins hold every permission.",
} as const;

/** The batch summary of spec/admin.md 8. */
export const batchSummary = (success: number, failed: number) => `success ${success}, failed ${failed}`;

const optionalName = z.string().trim().max(50, "At most 50 characters").optional().or(z.literal("")).nullable();

export const adminCreateUserSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: z
    .string(MESSAGES.passwordRequired)
    .min(1, MESSAGES.passwordRequired)
    .min(6, ADMIN_MESSAGES.passwordMin)
    .max(PASSWORD_MAX, MESSAGES.passwordMax),
  firstName: optionalName,
  lastName: optionalName,
  phone: phoneSchema.nullable(),
  roleIds: z.array(z.coerce.number().int().positive()).optional().default([]),
});
export type AdminCreateUserInput = z.infer<typeof adminCreateUserSchema>;

const booleanish = z.union([z.boolean(), z.enum(["true", "false", "1", "0", "on"])]).transform((v) => v === true || v === "true" || v === "1" || v === "on");

export const adminUpdateUserSchema = z.object({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.nullable(),
  is_admin: booleanish.optional(),
  avatar_url: z
    .string()
    .trim()
    .max(500)
    .refine((value) => value === "" || /^\/uploads\/[\w./-]+$/.test(value) || /^https?:\/\/\S+$/i.test(value), "Avatar must be an uploaded image path or an http(s) URL")
    .optional()
    .nullable(),
});
export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserSchema>;

export const adminResetPasswordSchema = z.object({
  newPassword: z
    .string(ADMIN_MESSAGES.passwordMin)
    .min(6, ADMIN_MESSAGES.passwordMin)
    .max(PASSWORD_MAX, MESSAGES.passwordMax),
});

export const roleAssignmentSchema = z.object({
  expiresAt: z
    .union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal(""), z.null()])
    .optional()
    .transform((value) => (value ? new Date(value).toISOString() : null)),
});

/** Query of the admin user list (page and API). */
export const userListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(USERS_PAGE_SIZE).default(USERS_PAGE_SIZE),
  q: z.string().trim().max(100).catch("").default(""),
  userType: z.enum(USER_TYPE_FILTERS).catch("all").default("all"),
});

/** The user edit form: username and email are required there; empty phone/avatar clear them. */
export const adminEditUserFormSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  // an empty field arrives as undefined: on this form that means "clear it"
  phone: phoneSchema.transform((value) => value ?? ""),
  avatar_url: adminUpdateUserSchema.shape.avatar_url.transform((value) => value ?? ""),
  // an unticked checkbox is absent: false
  is_admin: z.boolean().optional().default(false),
  confirm: z.literal("on", { error: ADMIN_MESSAGES.confirmRequired }),
});

export const adminResetPasswordFormSchema = adminResetPasswordSchema
  .extend({
    confirmPassword: z.string(ADMIN_MESSAGES.passwordMismatch),
    confirm: z.literal("on", { error: ADMIN_MESSAGES.confirmRequired }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: ADMIN_MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  });

/** The batch-create form: one textarea. */
export const adminBatchFormSchema = z.object({
  lines: z.string(ADMIN_MESSAGES.batchEmpty).trim().min(1, ADMIN_MESSAGES.batchEmpty),
});

/**
 * Parses the batch-create text: one user per line,
 * "username, email, password, firstName, lastName, phone" (at least the first three).
 */
export function parseBatchLines(text: string): Array<AdminCreateUserInput | { error: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(",").map((f) => f.trim());
      if (fields.length < 3 || !fields[0] || !fields[1] || !fields[2]) return { error: ADMIN_MESSAGES.batchFormat };
      const [username, email, password, firstName, lastName, phone] = fields;
      const parsed = adminCreateUserSchema.safeParse({ username, email, password, firstName, lastName, phone: phone ?? "" });
      if (!parsed.success) return { error: parsed.error.issues[0].message };
      return parsed.data;
    });
}

export type BatchEntry = AdminCreateUserInput | { error: string };

/**
 * The API's batch body: each entry is a user object or a
 * "username,email,password,firstName,lastName,phone" line.
 */
export function parseBatchEntries(users: unknown[]): BatchEntry[] {
  return users.map((entry): BatchEntry => {
    if (typeof entry === "string") {
      return entry.trim() ? parseBatchLines(entry)[0] : { error: ADMIN_MESSAGES.batchFormat };
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return { error: ADMIN_MESSAGES.batchFormat };
    const parsed = adminCreateUserSchema.safeParse(entry);
    return parsed.success ? parsed.data : { error: parsed.error.issues[0].message };
  });
}

export const adminBatchBodySchema = z.object({
  users: z
    .array(z.unknown(), ADMIN_MESSAGES.batchEmpty)
    .min(1, ADMIN_MESSAGES.batchEmpty)
    .max(BATCH_MAX, ADMIN_MESSAGES.batchTooMany),
});
