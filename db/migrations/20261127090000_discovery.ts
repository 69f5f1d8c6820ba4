import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

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

/**
 * PostgreSQL's search (the same questions as products_fts, products_grams and
 * products_words answer on SQLite; app/models/product-search-postgres.server.ts):
 * - product_search holds each product's name, description, shop and category names,
 *   lowercased and NFKC-normalised as on SQLite (search_normalize), and `document`, the
 *   four joined by line breaks (a search term never holds one, so a term never spans two
 *   of them): a trigram index over it answers LIKE '%term%' for terms of 3+ characters;
 * - its `grams`, the 1- and 2-character grams of name, shop and categories (search_grams,
 *   as db/search-grams.ts makes them), answer shorter terms through a GIN index;
 * - search_vocabulary counts the products holding each Latin word of name, shop and
 *   categories: what typo corrections are chosen from.
 * Kept by triggers, as on SQLite.
 */
async function createPostgresSearch(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE FUNCTION search_normalize(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(normalize(coalesce(source, ''), NFKC)) $$`.execute(db);
  // runs of letters and digits, normalised
  await sql`CREATE FUNCTION search_segments(source text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT segment FROM regexp_split_to_table(search_normalize(source), '[^[:alnum:]]+') AS segment WHERE segment <> '' $$`.execute(
    db,
  );
  await sql`CREATE FUNCTION search_grams(source text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT substr(segment, i, size)), '{}')
    FROM search_segments(source) AS segment, generate_series(1, char_length(segment)) AS i, (VALUES (1), (2)) AS sizes (size)
    WHERE i + size - 1 <= char_length(segment) $$`.execute(db);
  await sql`CREATE FUNCTION search_words(source text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT segment ORDER BY segment), '{}') FROM search_segments(source) AS segment WHERE segment ~ '^[a-z]+$' $$`.execute(
    db,
  );

  await sql`CREATE TABLE product_search (
    product_id bigint PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    name text NOT NULL,
    description text NOT NULL,
    shop_name text NOT NULL,
    category text NOT NULL,
    document text NOT NULL,
    grams text[] NOT NULL,
    words text[] NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX product_search_document ON product_search USING gin (document gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX product_search_grams ON product_search USING gin (grams)`.execute(db);
  await sql`CREATE TABLE search_vocabulary (word text PRIMARY KEY, documents bigint NOT NULL)`.execute(db);

  await sql`CREATE FUNCTION product_search_refresh(ids bigint[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO product_search (product_id, name, description, shop_name, category, document, grams, words)
    SELECT id, search_normalize(name), search_normalize(description), search_normalize(shop_name), search_normalize(category),
      search_normalize(name || E'\n' || description || E'\n' || shop_name || E'\n' || category),
      search_grams(name || ' ' || shop_name || ' ' || category), search_words(name || ' ' || shop_name || ' ' || category)
    FROM product_search_text WHERE id = ANY (ids)
    ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, description = excluded.description, shop_name = excluded.shop_name,
      category = excluded.category, document = excluded.document, grams = excluded.grams, words = excluded.words $$`.execute(db);
  await sql`CREATE FUNCTION products_search_index() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM product_search_refresh(ARRAY[NEW.id]);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products
    FOR EACH ROW EXECUTE FUNCTION products_search_index()`.execute(db);
  await sql`CREATE TRIGGER products_search_update AFTER UPDATE OF name, description, shop_name, category_id ON products
    FOR EACH ROW EXECUTE FUNCTION products_search_index()`.execute(db);
  // a category's products (and its subcategories' products) carry its name
  await sql`CREATE FUNCTION categories_search_index() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM product_search_refresh(ARRAY(SELECT id FROM products WHERE category_id = NEW.id
        OR category_id IN (SELECT id FROM categories WHERE parent_id = NEW.id)));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER categories_search_update AFTER UPDATE OF name, parent_id ON categories
    FOR EACH ROW EXECUTE FUNCTION categories_search_index()`.execute(db);

  // the vocabulary follows product_search's words (in word order: two writers never wait
  // on each other's words crosswise)
  await sql`CREATE FUNCTION search_vocabulary_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE search_vocabulary SET documents = documents - 1 WHERE word IN (SELECT unnest(OLD.words));
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO search_vocabulary (word, documents) SELECT word, 1 FROM unnest(NEW.words) AS word ORDER BY word
        ON CONFLICT (word) DO UPDATE SET documents = search_vocabulary.documents + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER product_search_vocabulary AFTER INSERT OR DELETE OR UPDATE OF words ON product_search
    FOR EACH ROW EXECUTE FUNCTION search_vocabulary_count()`.execute(db);

  await sql`SELECT product_search_refresh(ARRAY(SELECT id FROM products))`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE VIEW product_search_text AS
      SELECT p.id, p.name, coalesce(p.description, '') AS description, coalesce(p.shop_name, '') AS shop_name,
        trim(coalesce(c.name, '') || ' ' || coalesce(pc.name, '')) AS category
      FROM products p LEFT JOIN categories c ON c.id = p.category_id LEFT JOIN categories pc ON pc.id = c.parent_id`.execute(db);
    await createPostgresSearch(db);
  } else {
    await createSqliteSearch(db);
  }
  await createListingIndexAndWords(db);
}

async function createSqliteSearch(db: Kysely<any>): Promise<void> {
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
}

async function createListingIndexAndWords(db: Kysely<any>): Promise<void> {
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
  if (isPostgres(db)) {
    await sql`DROP TABLE IF EXISTS search_vocabulary, product_search`.execute(db);
    for (const trigger of [
      "products_search_insert ON products",
      "products_search_update ON products",
      "categories_search_update ON categories",
    ]) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
    }
    await sql`DROP FUNCTION IF EXISTS search_vocabulary_count, categories_search_index, products_search_index, product_search_refresh,
      search_words, search_grams, search_segments, search_normalize`.execute(db);
    await sql`DROP VIEW IF EXISTS product_search_text`.execute(db);
    return;
  }
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
