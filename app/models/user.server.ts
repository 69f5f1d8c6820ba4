import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { likeCaseless, nowIsoSql } from "./sql-dialect.server";
import type { UserRow, UserUpdate } from "../../db/schema";

export type User = {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  avatarUrl: string | null;
  isAdmin: boolean;
  emailVerified: boolean;
  pendingEmail: string | null;
  hasPassword: boolean;
  googleLinked: boolean;
  tokenVersion: number;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
  lastLoginIp: string | null;
};

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    avatarUrl: row.avatar_url,
    isAdmin: row.is_admin === 1,
    emailVerified: row.email_verified === 1,
    pendingEmail: row.pending_email,
    hasPassword: row.password_hash !== null,
    googleLinked: row.google_id !== null,
    tokenVersion: row.token_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastLoginAt: row.last_login_at,
    lastLoginIp: row.last_login_ip,
  };
}

export async function findUserById(db: DB, id: number): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByEmail(db: DB, email: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByUsername(db: DB, username: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("username", "=", username).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByGoogleId(db: DB, googleId: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("google_id", "=", googleId).executeTakeFirst();
  return row && toUser(row);
}

/** Login by e-mail or username: returns the user and the password hash. */
export async function findLoginCandidate(db: DB, identifier: string): Promise<{ user: User; passwordHash: string | null } | undefined> {
  const column = identifier.includes("@") ? "email" : "username";
  const row = await db.selectFrom("users").selectAll().where(column, "=", identifier).executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function getPasswordHash(db: DB, userId: number): Promise<string | null> {
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export type NewUserInput = {
  username: string;
  email: string;
  passwordHash: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  avatarUrl?: string | null;
  isAdmin?: boolean;
  emailVerified?: boolean;
  googleId?: string | null;
};

export async function insertUser(db: DB, input: NewUserInput): Promise<User> {
  const row = await db
    .insertInto("users")
    .values({
      username: input.username,
      email: input.email,
      password_hash: input.passwordHash,
      first_name: input.firstName || null,
      last_name: input.lastName || null,
      phone: input.phone || null,
      avatar_url: input.avatarUrl || null,
      is_admin: input.isAdmin ? 1 : 0,
      email_verified: input.emailVerified ? 1 : 0,
      google_id: input.googleId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function updateUserRow(db: DB, id: number, changes: Omit<UserUpdate, "id">): Promise<User | undefined> {
  const row = await db
    .updateTable("users")
    .set({ ...changes, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toUser(row);
}

/**
 * Stores a new password hash and bumps the token version in one statement (access tokens
 * carrying the old version stop working); `extra` columns change in the same update.
 */
export async function updatePasswordHash(
  db: DB,
  id: number,
  passwordHash: string,
  extra: Omit<UserUpdate, "id" | "password_hash" | "token_version"> = {},
): Promise<User | undefined> {
  const row = await db
    .updateTable("users")
    .set((eb) => ({
      ...extra,
      password_hash: passwordHash,
      token_version: eb("token_version", "+", 1),
      updated_at: new Date().toISOString(),
    }))
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toUser(row);
}

/** Ends every access token issued so far (they carry the old version). */
export async function bumpTokenVersion(db: DB, id: number): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ token_version: eb("token_version", "+", 1) }))
    .where("id", "=", id)
    .execute();
}

/** The users waiting to change their e-mail to `email`, the latest first. */
export async function findUsersByPendingEmail(db: DB, email: string): Promise<User[]> {
  const rows = await db.selectFrom("users").selectAll().where("pending_email", "=", email).orderBy("updated_at", "desc").execute();
  return rows.map(toUser);
}

export async function countUsers(db: DB): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteUserRow(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recordLogin(db: DB, id: number, ip: string): Promise<void> {
  await db
    .updateTable("users")
    .set({ last_login_at: new Date().toISOString(), last_login_ip: ip || null })
    .where("id", "=", id)
    .execute();
}

export type UserTypeFilter = "all" | "admin" | "regular";

/** An admin here is anyone with back-office access: is_admin or an admin role. */
const adminCondition = (db: DB) => sql<boolean>`(users.is_admin = 1 OR EXISTS (
  SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
  WHERE ur.user_id = users.id AND r.name IN ('super_admin', 'admin')
    AND (ur.expires_at IS NULL OR ur.expires_at > ${nowIsoSql(db)})))`;

export async function listUsers(
  db: DB,
  options: { q?: string; type?: UserTypeFilter; page: number; limit: number },
): Promise<{ items: User[]; totalItems: number; page: number }> {
  let query = db.selectFrom("users");
  const q = options.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`users.username ${likeCaseless(db)} ${pattern} ESCAPE '\\'`,
        sql<boolean>`users.email ${likeCaseless(db)} ${pattern} ESCAPE '\\'`,
      ]),
    );
  }
  if (options.type === "admin") query = query.where(adminCondition(db));
  if (options.type === "regular") query = query.where(sql<boolean>`NOT ${adminCondition(db)}`);
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
  const totalItems = Number(count);
  // a page past the end shows the last page
  const lastPage = Math.max(1, Math.ceil(totalItems / options.limit));
  const page = Math.min(Math.max(options.page, 1), lastPage);
  const rows = await query
    .selectAll("users")
    .orderBy("users.id", "desc")
    .limit(options.limit)
    .offset((page - 1) * options.limit)
    .execute();
  return { items: rows.map(toUser), totalItems, page };
}

export async function countUsersByType(db: DB): Promise<{ all: number; admin: number; regular: number }> {
  const all = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const admin = await db
    .selectFrom("users")
    .where(adminCondition(db))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { all: Number(all.n), admin: Number(admin.n), regular: Number(all.n) - Number(admin.n) };
}
