import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// QC photos remember the SHA-256 of the file their uploader sent, so the same photo sent
// twice by one user for one product is refused (a shopper's allowance is not used up by a
// double press, and the review queue gets one copy).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("qc_images").addColumn("content_hash", "text").execute();
  await sql`CREATE INDEX qc_images_uploader_hash ON qc_images (product_id, uploaded_by, content_hash) WHERE content_hash IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS qc_images_uploader_hash`.execute(db);
  await db.schema.alterTable("qc_images").dropColumn("content_hash").execute();
}
