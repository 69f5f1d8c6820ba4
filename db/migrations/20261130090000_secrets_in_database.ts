import type { Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// instance_secrets on SQLite too: the signing secrets (sessions, API tokens, unsubscribe
// links) are kept in the database file, and with it in its backups and in Litestream's
// replica, so a shop restored on a new machine keeps its sessions, tokens and the links of
// mail already sent (issue 35). PostgreSQL has had the table since 20261128090000_instances.

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema
    .createTable("instance_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.dropTable("instance_secrets").execute();
}
