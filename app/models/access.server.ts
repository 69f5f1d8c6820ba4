/** Roles and permissions held by users (reference rows come from a migration). */
import type { DB } from "~/lib/db.server";

export type RoleRef = { id: number; name: string; description: string };
export type PermissionRef = { id: number; name: string; description: string };
export type UserRoleRef = RoleRef & { expiresAt: string | null; assignedAt: string };

export async function listRoles(db: DB): Promise<RoleRef[]> {
  return db.selectFrom("roles").select(["id", "name", "description"]).orderBy("id").execute();
}

export async function listPermissions(db: DB): Promise<PermissionRef[]> {
  return db.selectFrom("permissions").select(["id", "name", "description"]).orderBy("id").execute();
}

export async function findRole(db: DB, by: { id?: number; name?: string }): Promise<RoleRef | undefined> {
  let query = db.selectFrom("roles").select(["id", "name", "description"]);
  if (by.id !== undefined) query = query.where("id", "=", by.id);
  if (by.name !== undefined) query = query.where("name", "=", by.name);
  return query.executeTakeFirst();
}

export async function findPermission(db: DB, id: number): Promise<PermissionRef | undefined> {
  return db.selectFrom("permissions").select(["id", "name", "description"]).where("id", "=", id).executeTakeFirst();
}

/** Roles in force (not expired) for a user. */
export async function rolesOfUser(db: DB, userId: number): Promise<UserRoleRef[]> {
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("roles", "roles.id", "user_roles.role_id")
    .select(["roles.id", "roles.name", "roles.description", "user_roles.expires_at", "user_roles.assigned_at"])
    .where("user_roles.user_id", "=", userId)
    .where((eb) => eb.or([eb("user_roles.expires_at", "is", null), eb("user_roles.expires_at", ">", new Date().toISOString())]))
    .orderBy("roles.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    expiresAt: row.expires_at,
    assignedAt: row.assigned_at,
  }));
}

export async function directPermissionsOfUser(db: DB, userId: number): Promise<PermissionRef[]> {
  return db
    .selectFrom("user_permissions")
    .innerJoin("permissions", "permissions.id", "user_permissions.permission_id")
    .select(["permissions.id", "permissions.name", "permissions.description"])
    .where("user_permissions.user_id", "=", userId)
    .orderBy("permissions.id")
    .execute();
}

/** Role names in force for many users at once (user lists). */
export async function roleNamesOfUsers(db: DB, userIds: number[]): Promise<Map<number, RoleRef[]>> {
  const result = new Map<number, RoleRef[]>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("roles", "roles.id", "user_roles.role_id")
    .select(["user_roles.user_id", "roles.id", "roles.name", "roles.description"])
    .where("user_roles.user_id", "in", userIds)
    .where((eb) => eb.or([eb("user_roles.expires_at", "is", null), eb("user_roles.expires_at", ">", new Date().toISOString())]))
    .execute();
  for (const row of rows) {
    const list = result.get(row.user_id) ?? [];
    list.push({ id: row.id, name: row.name, description: row.description });
    result.set(row.user_id, list);
  }
  return result;
}

export async function assignRole(
  db: DB,
  input: { userId: number; roleId: number; expiresAt: string | null; assignedBy: number | null },
): Promise<void> {
  await db
    .insertInto("user_roles")
    .values({ user_id: input.userId, role_id: input.roleId, expires_at: input.expiresAt, assigned_by: input.assignedBy })
    .onConflict((oc) => oc.columns(["user_id", "role_id"]).doUpdateSet({ expires_at: input.expiresAt, assigned_by: input.assignedBy }))
    .execute();
}

export async function revokeRole(db: DB, userId: number, roleId: number): Promise<boolean> {
  const result = await db.deleteFrom("user_roles").where("user_id", "=", userId).where("role_id", "=", roleId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function grantPermission(db: DB, input: { userId: number; permissionId: number; grantedBy: number | null }): Promise<void> {
  await db
    .insertInto("user_permissions")
    .values({ user_id: input.userId, permission_id: input.permissionId, granted_by: input.grantedBy })
    .onConflict((oc) => oc.columns(["user_id", "permission_id"]).doNothing())
    .execute();
}

export async function revokePermission(db: DB, userId: number, permissionId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("user_permissions")
    .where("user_id", "=", userId)
    .where("permission_id", "=", permissionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Users holding super_admin now. */
export async function countSuperAdmins(db: DB): Promise<number> {
  const row = await db
    .selectFrom("user_roles")
    .innerJoin("roles", "roles.id", "user_roles.role_id")
    .where("roles.name", "=", "super_admin")
    .where((eb) => eb.or([eb("user_roles.expires_at", "is", null), eb("user_roles.expires_at", ">", new Date().toISOString())]))
    .select((eb) => eb.fn.count<number>("user_roles.user_id").distinct().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
