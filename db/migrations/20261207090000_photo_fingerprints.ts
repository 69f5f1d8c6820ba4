import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// Search by photo and "the same item elsewhere" (issue 38, docs/decisions/047-photo-index.md):
// - photo_fingerprints: one row a product picture (a product image, or an approved QC photo
//   with its qc_image_id), with its perceptual hashes as hex (19 × 16 characters; null with
//   `error` when the picture could not be read). Rows are never changed, only added and
//   deleted; a product's or QC photo's deletion takes its rows along.
// - photo_fingerprint_removals: every deleted row's id, written by a trigger (cascades
//   included), so each instance's in-memory index drops what another instance removed by
//   reading what is new in two tables instead of reloading everything.
// - same_item_decisions: staff's word on two products found alike: linked (the same item,
//   shown even when their photos stop matching) or dismissed (never shown as the same).
//   The lower product id comes first.
// - indexes on products (updated_at, id) and qc_images (reviewed_at): the photo sync walks
//   what changed since its last run in that order (a product's images, a QC photo approved).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("photo_fingerprints")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("qc_image_id", "integer", (c) => c.references("qc_images.id").onDelete("cascade"))
    .addColumn("image_url", "text", (c) => c.notNull())
    .addColumn("hashes", "text")
    // the 256-bit detail hash of the picture's content (64 hex digits): two listings are the
    // same item only when their pictures agree in detail too
    .addColumn("detail", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("photo_fingerprints_product")
    .on("photo_fingerprints")
    .columns(["product_id", "image_url"])
    .unique()
    .execute();
  await db.schema.createIndex("photo_fingerprints_qc_image").on("photo_fingerprints").column("qc_image_id").execute();
  // the unreadable ones, tried again after a while
  await sql`CREATE INDEX photo_fingerprints_unreadable ON photo_fingerprints (created_at) WHERE hashes IS NULL`.execute(db);

  await db.schema.createIndex("products_updated").on("products").columns(["updated_at", "id"]).execute();
  await db.schema.createIndex("qc_images_reviewed").on("qc_images").columns(["reviewed_at", "id"]).execute();

  await db.schema
    .createTable("photo_fingerprint_removals")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("fingerprint_id", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();

  if (isPostgres(db)) {
    await sql`CREATE FUNCTION photo_fingerprints_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO photo_fingerprint_removals (fingerprint_id) VALUES (OLD.id);
      RETURN NULL;
    END $$`.execute(db);
    await sql`CREATE TRIGGER photo_fingerprints_removed AFTER DELETE ON photo_fingerprints
      FOR EACH ROW EXECUTE FUNCTION photo_fingerprints_removed()`.execute(db);
  } else {
    await sql`CREATE TRIGGER photo_fingerprints_removed AFTER DELETE ON photo_fingerprints BEGIN
      INSERT INTO photo_fingerprint_removals (fingerprint_id) VALUES (OLD.id);
    END`.execute(db);
  }

  await db.schema
    .createTable("same_item_decisions")
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("other_product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    // linked | dismissed
    .addColumn("decision", "text", (c) => c.notNull())
    .addColumn("decided_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("same_item_decisions_pk", ["product_id", "other_product_id"])
    .execute();
  await db.schema.createIndex("same_item_decisions_other").on("same_item_decisions").columns(["other_product_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("same_item_decisions").execute();
  await db.schema.dropTable("photo_fingerprint_removals").execute();
  await db.schema.dropTable("photo_fingerprints").execute();
  await db.schema.dropIndex("qc_images_reviewed").execute();
  await db.schema.dropIndex("products_updated").execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS photo_fingerprints_removed()`.execute(db);
}
