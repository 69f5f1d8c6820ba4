import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// Every file the server stores under UPLOADS_DIR, with the user it was issued to: only
// these names are accepted back from clients, and only their owner's actions delete them.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("uploads")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // relative to UPLOADS_DIR, e.g. avatars/2026-11/<uuid>.webp; served as /uploads/<path>
    .addColumn("path", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("owner_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("bytes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("uploads_owner").on("uploads").column("owner_id").execute();
  await db.schema.createIndex("uploads_kind_created").on("uploads").columns(["kind", "created_at"]).execute();

  // Avatars stored before this table existed: a server-made name used by exactly one user
  // belongs to that user. A name shared by several users (set by hand through the old
  // avatarUrl field) is owned by no one and is never deleted on their behalf.
  const serverMade = isPostgres(db)
    ? sql`avatar_url ~ '^/uploads/avatars/[0-9]{4}-[0-9]{2}/.*[.]webp$' AND avatar_url NOT LIKE '%..%'`
    : sql`avatar_url GLOB '/uploads/avatars/[0-9][0-9][0-9][0-9]-[0-9][0-9]/*.webp'
      AND avatar_url NOT GLOB '*..*'`;
  await sql`
    INSERT INTO uploads (path, kind, owner_id)
    SELECT substr(avatar_url, 10), 'avatars', min(id)
    FROM users
    WHERE ${serverMade}
    GROUP BY avatar_url
    HAVING count(*) = 1
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("uploads").execute();
}
