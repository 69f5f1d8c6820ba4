import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// Quality-control photos of products (docs/product/storefront.md, docs/product/admin.md "QC"): each a
// display image and a thumbnail under UPLOADS_DIR, pending until reviewed when a shopper
// sent it, approved at once when staff did. A rejected photo's files are deleted; its row
// stays (without addresses) so its sender sees the reason and the counts stay true.
// products.qc_count (approved photos) is kept by triggers for the lists and filters.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("qc_images")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    // pending | approved | rejected
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    // null once rejected (the files are deleted)
    .addColumn("image_url", "text")
    .addColumn("thumb_url", "text")
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("thumb_width", "integer")
    .addColumn("thumb_height", "integer")
    .addColumn("bytes", "integer", (c) => c.notNull().defaultTo(0))
    // the photos sent together: shown together as one QC set
    .addColumn("set_key", "text", (c) => c.notNull())
    .addColumn("uploaded_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_at", "text")
    .addColumn("review_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("qc_images_product").on("qc_images").columns(["product_id", "status", "id"]).execute();
  await db.schema.createIndex("qc_images_status").on("qc_images").columns(["status", "id"]).execute();
  await db.schema.createIndex("qc_images_uploader").on("qc_images").columns(["uploaded_by", "product_id", "status"]).execute();

  await sql`ALTER TABLE products ADD COLUMN qc_count integer NOT NULL DEFAULT 0`.execute(db);
  await db.schema.createIndex("products_qc_count").on("products").columns(["qc_count", "id"]).execute();

  if (isPostgres(db)) {
    // one function for the three cases of SQLite's triggers below
    await sql`CREATE FUNCTION qc_images_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.status = 'approved' THEN
        UPDATE products SET qc_count = greatest(qc_count - 1, 0) WHERE id = OLD.product_id;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'approved' THEN
        UPDATE products SET qc_count = qc_count + 1 WHERE id = NEW.product_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
    await sql`CREATE TRIGGER qc_images_count_insert AFTER INSERT ON qc_images
      FOR EACH ROW WHEN (NEW.status = 'approved') EXECUTE FUNCTION qc_images_count()`.execute(db);
    await sql`CREATE TRIGGER qc_images_count_delete AFTER DELETE ON qc_images
      FOR EACH ROW WHEN (OLD.status = 'approved') EXECUTE FUNCTION qc_images_count()`.execute(db);
    await sql`CREATE TRIGGER qc_images_count_update AFTER UPDATE OF status, product_id ON qc_images
      FOR EACH ROW WHEN ((OLD.status = 'approved') <> (NEW.status = 'approved') OR OLD.product_id <> NEW.product_id)
      EXECUTE FUNCTION qc_images_count()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER qc_images_count_insert AFTER INSERT ON qc_images WHEN new.status = 'approved' BEGIN
    UPDATE products SET qc_count = qc_count + 1 WHERE id = new.product_id;
  END`.execute(db);
  await sql`CREATE TRIGGER qc_images_count_delete AFTER DELETE ON qc_images WHEN old.status = 'approved' BEGIN
    UPDATE products SET qc_count = max(qc_count - 1, 0) WHERE id = old.product_id;
  END`.execute(db);
  await sql`CREATE TRIGGER qc_images_count_update AFTER UPDATE OF status, product_id ON qc_images
    WHEN (old.status = 'approved') <> (new.status = 'approved') OR old.product_id <> new.product_id BEGIN
    UPDATE products SET qc_count = max(qc_count - 1, 0) WHERE id = old.product_id AND old.status = 'approved';
    UPDATE products SET qc_count = qc_count + 1 WHERE id = new.product_id AND new.status = 'approved';
  END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ["qc_images_count_insert", "qc_images_count_delete", "qc_images_count_update"]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}${sql.raw(isPostgres(db) ? " ON qc_images" : "")}`.execute(db);
  }
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS qc_images_count()`.execute(db);
  await db.schema.dropTable("qc_images").ifExists().execute();
  await db.schema.dropIndex("products_qc_count").ifExists().execute();
  await sql`ALTER TABLE products DROP COLUMN qc_count`.execute(db);
}
