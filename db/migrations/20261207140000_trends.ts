import type { Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Trends (issue 39, docs/decisions/048-shoppers-comparisons.md): the week's approved QC
// photos and new collections, counted per product, read by their time: an index range
// each, never a scan of every photo or collection.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("qc_images_status_created").on("qc_images").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("collections_created").on("collections").columns(["created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("collections_created").execute();
  await db.schema.dropIndex("qc_images_status_created").execute();
}
