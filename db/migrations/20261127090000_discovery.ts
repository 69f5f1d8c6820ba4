import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Discovery (docs/decisions/028-forgiving-search.md):
// - the search indexes also hold each product's category names (its own and its parent's),
//   so "外套" finds the products of the 外套 Jackets & coats category; they become
//   contentless (deleted by rowid), so a category rename re-indexes its products without
//   knowing the old text;
// - products_words (unicode61 words of name, shop and categories) and its vocabulary
//   (fts5vocab) are what typo corrections are chosen from;
// - search_aliases: staff's words that mean the same (af1 → Air Force 1, 耐克 ↔ Nike);
// - search_terms: how often each search was made a day (the popular searches).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

const SEARCH_TRIGGERS = ["products_search_insert", "products_search_delete", "products_search_update"];
const NEW_TRIGGERS = [...SEARCH_TRIGGERS, "categories_search_update"];

/** Statements that (re)index the products whose ids `ids` selects, from product_search_text. */
function indexProducts(ids: string): string {
  return `
    INSERT INTO products_fts (rowid, name, description, shop_name, category)
      SELECT id, name, description, shop_name, category FROM product_search_text WHERE id IN (${ids});
    INSERT INTO products_grams (rowid, grams)
      SELECT id, search_grams(name || ' ' || shop_name || ' ' || category) FROM product_search_text WHERE id IN (${ids});
    INSERT INTO products_words (rowid, words)
      SELECT id, name || ' ' || shop_name || ' ' || category FROM product_search_text WHERE id IN (${ids});`;
}

function unindexProducts(ids: string): string {
  return `
    DELETE FROM products_fts WHERE rowid IN (${ids});
    DELETE FROM products_grams WHERE rowid IN (${ids});
    DELETE FROM products_words WHERE rowid IN (${ids});`;
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const trigger of SEARCH_TRIGGERS) await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
  await sql`DROP TABLE products_fts`.execute(db);
  await sql`DROP TABLE products_grams`.execute(db);

  // what the search indexes hold of a product
  await sql`CREATE VIEW product_search_text AS
    SELECT p.id, p.name, coalesce(p.description, '') AS description, coalesce(p.shop_name, '') AS shop_name,
      trim(coalesce(c.name, '') || ' ' || coalesce(pc.name, '')) AS category
    FROM products p LEFT JOIN categories c ON c.id = p.category_id LEFT JOIN categories pc ON pc.id = c.parent_id`.execute(db);

  await sql`CREATE VIRTUAL TABLE products_fts USING fts5(
    name, description, shop_name, category, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
  await sql`CREATE VIRTUAL TABLE products_grams USING fts5(
    grams, content='', contentless_delete=1, tokenize='unicode61')`.execute(db);
  await sql`CREATE VIRTUAL TABLE products_words USING fts5(
    words, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(db);
  await sql`CREATE VIRTUAL TABLE products_words_vocab USING fts5vocab(products_words, 'row')`.execute(db);

  for (const statement of indexProducts("SELECT id FROM products").split(";")) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }

  await sql
    .raw(
      `CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN ${indexProducts("new.id")}
  END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN ${unindexProducts("old.id")}
  END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER products_search_update AFTER UPDATE OF name, description, shop_name, category_id ON products BEGIN
    ${unindexProducts("old.id")} ${indexProducts("new.id")}
  END`,
    )
    .execute(db);
  // a category's products (and its subcategories' products) carry its name
  const ofCategory =
    "SELECT id FROM products WHERE category_id = new.id OR category_id IN (SELECT id FROM categories WHERE parent_id = new.id)";
  await sql
    .raw(
      `CREATE TRIGGER categories_search_update AFTER UPDATE OF name, parent_id ON categories BEGIN
    ${unindexProducts(ofCategory)} ${indexProducts(ofCategory)}
  END`,
    )
    .execute(db);

  // what a search checks of each match: the storefront's and the shopper's filters, read
  // from this index instead of the whole row (a search for a common word with a narrow
  // filter checks thousands of matches; view counts, which change all day, stay out)
  await sql`CREATE INDEX products_listing ON products (id, show_in_listing, is_external, platform, price_fen, qc_count, category_id)`.execute(
    db,
  );

  await db.schema
    .createTable("search_aliases")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // what shoppers type
    .addColumn("term", "text", (c) => c.notNull())
    // JSON array: what it also finds
    .addColumn("alternatives", "text", (c) => c.notNull())
    // 1: each alternative also finds the term (耐克 ↔ Nike)
    .addColumn("both_ways", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`CREATE UNIQUE INDEX search_aliases_term ON search_aliases (lower(term))`.execute(db);
  const defaults: Array<[string, string[], number]> = [
    ["af1", ["Air Force 1"], 0],
    ["aj", ["Air Jordan"], 0],
    ["耐克", ["Nike"], 1],
    ["阿迪达斯", ["Adidas"], 1],
    ["nb", ["New Balance"], 0],
    ["tnf", ["The North Face"], 0],
    ["lv", ["Louis Vuitton"], 0],
    ["airforce", ["Air Force"], 0],
  ];
  for (const [term, alternatives, bothWays] of defaults) {
    await db
      .insertInto("search_aliases")
      .values({ term, alternatives: JSON.stringify(alternatives), both_ways: bothWays })
      .execute();
  }

  await db.schema
    .createTable("search_terms")
    // normalised (lower case, single spaces)
    .addColumn("term", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("searches", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("search_terms_pk", ["term", "day"])
    .execute();
  await db.schema.createIndex("search_terms_day").on("search_terms").columns(["day"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS products_listing`.execute(db);
  await db.schema.dropTable("search_terms").ifExists().execute();
  await db.schema.dropTable("search_aliases").ifExists().execute();
  for (const trigger of NEW_TRIGGERS) await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
  for (const table of ["products_words_vocab", "products_words", "products_grams", "products_fts"]) {
    await sql`DROP TABLE IF EXISTS ${sql.raw(table)}`.execute(db);
  }
  await sql`DROP VIEW IF EXISTS product_search_text`.execute(db);
  // the earlier indexes and their triggers
  await sql`CREATE VIRTUAL TABLE products_fts USING fts5(
    name, description, shop_name, content='products', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`CREATE VIRTUAL TABLE products_grams USING fts5(
    grams, content='', contentless_delete=1, tokenize='unicode61')`.execute(db);
  await sql`INSERT INTO products_fts (products_fts) VALUES ('rebuild')`.execute(db);
  await sql`INSERT INTO products_grams (rowid, grams) SELECT id, search_grams(name || ' ' || coalesce(shop_name, '')) FROM products`.execute(
    db,
  );
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
