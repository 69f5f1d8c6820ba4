import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Bulk import (docs/marketplace-links.md, "Bulk import"): staff paste up to 1,000 links or
// upload a CSV/XLSX export; a job imports row by row in the background (surviving a
// restart: rows still pending are taken up again), each row keeping its outcome.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("import_jobs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    // paste | csv | xlsx
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("file_name", "text")
    // running | done
    .addColumn("status", "text", (c) => c.notNull().defaultTo("running"))
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("finished_at", "text")
    .execute();
  await db.schema
    .createTable("import_rows")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("job_id", "integer", (c) => c.notNull().references("import_jobs.id").onDelete("cascade"))
    // the row's place in what was pasted or uploaded (1-based)
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("link", "text", (c) => c.notNull())
    .addColumn("platform", "text")
    .addColumn("item_id", "text")
    // pending | imported | exists | duplicate | not_item | failed
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("message", "text")
    .addColumn("product_id", "integer", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("import_rows_job").on("import_rows").columns(["job_id", "position"]).execute();
  await db.schema.createIndex("import_rows_job_status").on("import_rows").columns(["job_id", "status"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("import_rows").execute();
  await db.schema.dropTable("import_jobs").execute();
}
