import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// The catalogue: categories (one level of parents), products (local or external, prices in
// fen = CNY/100), SKUs, collections, the search indexes kept in sync by triggers, and the
// exchange rates.
//
// Search: products_fts (FTS5, trigram) over name, description and shop name answers terms
// of 3+ characters; products_grams (FTS5, unicode61 over the 1- and 2-character grams of
// name and shop name, made by the search_grams() SQL function every app connection
// registers, see db/connection.ts) answers shorter terms such as 耐克 or 外套.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("categories")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("parent_id", "integer", (c) => c.references("categories.id").onDelete("restrict"))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("categories_parent_sort").on("categories").columns(["parent_id", "sort_order", "id"]).execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    // text blocks of an imported description, JSON array of strings
    .addColumn("description_items", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("price_fen", "integer")
    .addColumn("category_id", "integer", (c) => c.references("categories.id").onDelete("set null"))
    // JSON array of image URLs; the first is the thumbnail
    .addColumn("images", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("platform", "text", (c) => c.check(sql`platform IN ('weidian', 'taobao', 'tmall', '1688')`))
    .addColumn("platform_item_id", "text")
    .addColumn("original_url", "text")
    .addColumn("shop_name", "text")
    .addColumn("is_external", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("show_in_listing", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("view_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  // one product per marketplace item
  await sql`CREATE UNIQUE INDEX products_platform_item ON products (platform, platform_item_id)
    WHERE platform IS NOT NULL AND platform_item_id IS NOT NULL`.execute(db);
  await db.schema.createIndex("products_category").on("products").columns(["category_id", "id"]).execute();
  await db.schema.createIndex("products_external").on("products").columns(["is_external", "id"]).execute();
  await db.schema.createIndex("products_views").on("products").columns(["view_count", "id"]).execute();
  await db.schema.createIndex("products_price").on("products").columns(["price_fen", "id"]).execute();

  await db.schema
    .createTable("product_skus")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("sku_name", "text", (c) => c.notNull())
    .addColumn("price_fen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("thumbnail_url", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("product_skus_name", ["product_id", "sku_name"])
    .execute();

  await db.schema
    .createTable("collections")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("collections_pk", ["user_id", "product_id"])
    .execute();
  await db.schema.createIndex("collections_user_date").on("collections").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("collections_product").on("collections").column("product_id").execute();

  // PostgreSQL searches with pg_trgm and a grams table, made by the discovery migration
  // (20261127090000) in their final form
  if (!isPostgres(db)) {
    await sql`CREATE VIRTUAL TABLE products_fts USING fts5(
      name, description, shop_name, content='products', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`CREATE VIRTUAL TABLE products_grams USING fts5(
      grams, content='', contentless_delete=1, tokenize='unicode61')`.execute(db);

    await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
      INSERT INTO products_fts (rowid, name, description, shop_name)
        VALUES (new.id, new.name, coalesce(new.description, ''), coalesce(new.shop_name, ''));
      INSERT INTO products_grams (rowid, grams)
        VALUES (new.id, search_grams(new.name || ' ' || coalesce(new.shop_name, '')));
    END`.execute(db);
    await sql`CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN
      INSERT INTO products_fts (products_fts, rowid, name, description, shop_name)
        VALUES ('delete', old.id, old.name, coalesce(old.description, ''), coalesce(old.shop_name, ''));
      DELETE FROM products_grams WHERE rowid = old.id;
    END`.execute(db);
    await sql`CREATE TRIGGER products_search_update AFTER UPDATE OF name, description, shop_name ON products BEGIN
      INSERT INTO products_fts (products_fts, rowid, name, description, shop_name)
        VALUES ('delete', old.id, old.name, coalesce(old.description, ''), coalesce(old.shop_name, ''));
      INSERT INTO products_fts (rowid, name, description, shop_name)
        VALUES (new.id, new.name, coalesce(new.description, ''), coalesce(new.shop_name, ''));
      DELETE FROM products_grams WHERE rowid = old.id;
      INSERT INTO products_grams (rowid, grams)
        VALUES (new.id, search_grams(new.name || ' ' || coalesce(new.shop_name, '')));
    END`.execute(db);
  }

  // CNY per one unit of each currency: automatic (from the rate files) and manual (admin)
  await db.schema
    .createTable("exchange_rates")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("auto_rate", "real")
    .addColumn("manual_rate", "real")
    .execute();
  await db.schema
    .createTable("exchange_rate_state")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("automatic")
        .check(sql`mode IN ('automatic', 'manual')`),
    )
    .addColumn("auto_updated_at", "text")
    .addColumn("manual_updated_at", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_error", "text")
    .execute();
  await sql`INSERT INTO exchange_rate_state (id) VALUES (1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of isPostgres(db) ? [] : ["products_search_insert", "products_search_delete", "products_search_update"]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
  }
  for (const table of [
    "exchange_rate_state",
    "exchange_rates",
    "products_grams",
    "products_fts",
    "collections",
    "product_skus",
    "products",
    "categories",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
