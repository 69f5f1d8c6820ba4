import type { Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// A running job is leased (app/services/jobs.server.ts): the instance that claimed it
// (claimed_by) renews lease_until (epoch ms) while it runs. When the lease runs out, the
// instance is gone (killed, its machine lost) and another takes the job again. On SQLite
// one process owns the file and a start still takes back every job left running.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("lease_until", "integer").execute();
  await db.schema.alterTable("jobs").addColumn("claimed_by", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("claimed_by").execute();
  await db.schema.alterTable("jobs").dropColumn("lease_until").execute();
}
