import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// Accounts, sessions, API refresh tokens, one-time codes, captchas, rate-limit counters,
// roles and permissions (reference rows).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

const roles: Array<[string, string]> = [
  ["super_admin", "Super administrator: holds every permission"],
  ["admin", "Administrator: back-office access with the permissions granted to them"],
];

const permissions: Array<[string, string]> = [
  ["product.create", "Create products"],
  ["product.edit", "Edit products"],
  ["product.delete", "Delete products"],
  ["blog.create", "Create blog posts"],
  ["blog.edit", "Edit blog posts"],
  ["blog.delete", "Delete blog posts"],
  ["blog.publish", "Publish and unpublish blog posts"],
  ["blog.manage_categories", "Manage blog categories"],
  ["user.create", "Create users"],
  ["user.edit", "Edit users"],
  ["user.delete", "Delete users"],
  ["qc.upload", "Upload QC images (published directly)"],
  ["qc.review", "Review pending QC images"],
  ["qc.approve", "Approve QC images"],
  ["qc.reject", "Reject QC images"],
  ["qc.delete", "Delete QC images"],
  ["qc.manage", "Manage all QC images"],
];

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL: COLLATE NOCASE columns become citext (portable.ts)
  if (isPostgres(db)) await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(db);
  await db.schema
    .createTable("users")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("username", "text", (c) =>
      c
        .notNull()
        .unique()
        .modifyFront(sql`COLLATE NOCASE`),
    )
    .addColumn("email", "text", (c) =>
      c
        .notNull()
        .unique()
        .modifyFront(sql`COLLATE NOCASE`),
    )
    .addColumn("password_hash", "text")
    .addColumn("first_name", "text")
    .addColumn("last_name", "text")
    .addColumn("phone", "text")
    .addColumn("avatar_url", "text")
    .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("email_verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pending_email", "text")
    .addColumn("google_id", "text", (c) => c.unique())
    .addColumn("token_version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("last_login_at", "text")
    .addColumn("last_login_ip", "text")
    .execute();

  await db.schema
    .createTable("roles")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("permissions")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role_id", "integer", (c) => c.notNull().references("roles.id").onDelete("cascade"))
    .addColumn("expires_at", "text")
    .addColumn("assigned_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("assigned_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role_id"])
    .execute();

  await db.schema
    .createTable("user_permissions")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("permission_id", "integer", (c) => c.notNull().references("permissions.id").onDelete("cascade"))
    .addColumn("granted_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("granted_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addPrimaryKeyConstraint("user_permissions_pk", ["user_id", "permission_id"])
    .execute();

  // Browser sessions: the cookie holds a random token, the row its SHA-256.
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

  // API refresh tokens, stored hashed; a rotation keeps the family's first issue time.
  await db.schema
    .createTable("refresh_tokens")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("family_issued_at", "text", (c) => c.notNull())
    .addColumn("issued_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("refresh_tokens_user_id").on("refresh_tokens").column("user_id").execute();

  // One-time e-mail codes (registration, verification, password reset, e-mail change).
  await db.schema
    .createTable("verification_codes")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("email", "text", (c) => c.notNull().modifyFront(sql`COLLATE NOCASE`))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("consumed_at", "text")
    .execute();
  await db.schema.createIndex("verification_codes_lookup").on("verification_codes").columns(["email", "purpose"]).execute();

  await db.schema
    .createTable("captchas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("answer_hash", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();

  // Fixed-window counters for throttling (code sending, failed logins).
  await db.schema
    .createTable("rate_limits")
    .addColumn("bucket", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("window_ends_at", "integer", (c) => c.notNull())
    .execute();

  await db
    .insertInto("roles")
    .values(roles.map(([name, description]) => ({ name, description })))
    .execute();
  await db
    .insertInto("permissions")
    .values(permissions.map(([name, description]) => ({ name, description })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "rate_limits",
    "captchas",
    "verification_codes",
    "refresh_tokens",
    "sessions",
    "user_permissions",
    "user_roles",
    "permissions",
    "roles",
    "users",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
