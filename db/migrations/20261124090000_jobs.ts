import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Background work (scheduled posts, campaign sends, listing checks, the rate refresh)
// kept in the database, so a restart resumes it (app/services/jobs.server.ts).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // the handler that runs it (a name registered in app/services/job-handlers.server.ts)
    .addColumn("name", "text", (c) => c.notNull())
    // at most one unfinished job per key (pending or running): enqueueing twice is a no-op
    .addColumn("key", "text")
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("{}"))
    // epoch milliseconds: not before this time
    .addColumn("run_at", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("started_at", "integer")
    .addColumn("finished_at", "integer")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`CREATE INDEX jobs_due ON jobs (status, run_at)`.execute(db);
  await sql`CREATE UNIQUE INDEX jobs_unfinished_key ON jobs (key) WHERE key IS NOT NULL AND status IN ('pending', 'running')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").execute();
}
