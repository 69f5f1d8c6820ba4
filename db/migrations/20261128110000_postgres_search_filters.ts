import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// PostgreSQL's search, made fast for filters and sorts (nothing on SQLite):
// - product_search also holds what the shoppers' filters read (listing, source, platform,
//   price, QC photos, category): a search counts its matches that pass the filters from
//   that one table, without visiting each product (SQLite reads them from its covering
//   index products_listing). A trigger keeps them in step with the products.
// - products_price_order is the price order as SQLite's index gives it: SQLite sorts NULL
//   first going up, PostgreSQL last; walked either way, this index gives SQLite's two orders.
// - Products written many at once (an import, a copy) are indexed once per statement, and
//   the vocabulary counted once per statement, from the statement's rows (transition
//   tables): row by row, 50,000 new products took minutes.

const FILTER_COLUMNS = ["show_in_listing", "is_external", "platform", "price_fen", "qc_count", "category_id"];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE INDEX products_price_order ON products (price_fen ASC NULLS FIRST, id ASC)`.execute(db);
  await sql`ALTER TABLE product_search ADD COLUMN show_in_listing bigint, ADD COLUMN is_external bigint, ADD COLUMN platform text,
    ADD COLUMN price_fen bigint, ADD COLUMN qc_count bigint, ADD COLUMN category_id bigint`.execute(db);
  // the refresh of migration 20261127090000, now with the filters' columns
  await sql`CREATE OR REPLACE FUNCTION product_search_refresh(ids bigint[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO product_search (product_id, name, description, shop_name, category, document, grams, words,
      show_in_listing, is_external, platform, price_fen, qc_count, category_id)
    SELECT t.id, search_normalize(t.name), search_normalize(t.description), search_normalize(t.shop_name), search_normalize(t.category),
      search_normalize(t.name || E'\\n' || t.description || E'\\n' || t.shop_name || E'\\n' || t.category),
      search_grams(t.name || ' ' || t.shop_name || ' ' || t.category), search_words(t.name || ' ' || t.shop_name || ' ' || t.category),
      p.show_in_listing, p.is_external, p.platform, p.price_fen, p.qc_count, p.category_id
    FROM product_search_text t JOIN products p ON p.id = t.id WHERE t.id = ANY (ids)
    ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, description = excluded.description, shop_name = excluded.shop_name,
      category = excluded.category, document = excluded.document, grams = excluded.grams, words = excluded.words,
      show_in_listing = excluded.show_in_listing, is_external = excluded.is_external, platform = excluded.platform,
      price_fen = excluded.price_fen, qc_count = excluded.qc_count, category_id = excluded.category_id $$`.execute(db);
  await sql`CREATE FUNCTION product_search_filters() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE product_search SET show_in_listing = NEW.show_in_listing, is_external = NEW.is_external, platform = NEW.platform,
        price_fen = NEW.price_fen, qc_count = NEW.qc_count, category_id = NEW.category_id
      WHERE product_id = NEW.id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER products_search_filters AFTER UPDATE OF ${sql.raw(FILTER_COLUMNS.join(", "))} ON products
    FOR EACH ROW EXECUTE FUNCTION product_search_filters()`.execute(db);
  await sql`DROP TRIGGER products_search_insert ON products`.execute(db);
  await sql`CREATE FUNCTION products_search_index_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM product_search_refresh(ARRAY(SELECT id FROM inserted));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION products_search_index_inserted()`.execute(db);

  await sql`DROP TRIGGER product_search_vocabulary ON product_search`.execute(db);
  // words counted in and out per statement, in word order (two writers never wait on each
  // other's words crosswise); an update changes the counts only where the words changed
  await sql`CREATE FUNCTION search_vocabulary_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        UPDATE search_vocabulary v SET documents = v.documents - r.n
        FROM (SELECT word, count(*) AS n FROM removed JOIN added USING (product_id), unnest(removed.words) AS word
              WHERE removed.words IS DISTINCT FROM added.words GROUP BY word) AS r
        WHERE v.word = r.word;
        INSERT INTO search_vocabulary (word, documents)
        SELECT word, count(*) FROM added JOIN removed USING (product_id), unnest(added.words) AS word
        WHERE added.words IS DISTINCT FROM removed.words GROUP BY word ORDER BY word
        ON CONFLICT (word) DO UPDATE SET documents = search_vocabulary.documents + excluded.documents;
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE search_vocabulary v SET documents = v.documents - r.n
        FROM (SELECT word, count(*) AS n FROM removed, unnest(removed.words) AS word GROUP BY word) AS r
        WHERE v.word = r.word;
      ELSE
        INSERT INTO search_vocabulary (word, documents)
        SELECT word, count(*) FROM added, unnest(added.words) AS word GROUP BY word ORDER BY word
        ON CONFLICT (word) DO UPDATE SET documents = search_vocabulary.documents + excluded.documents;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER product_search_vocabulary_insert AFTER INSERT ON product_search REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_change()`.execute(db);
  await sql`CREATE TRIGGER product_search_vocabulary_update AFTER UPDATE ON product_search REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_change()`.execute(db);
  await sql`CREATE TRIGGER product_search_vocabulary_delete AFTER DELETE ON product_search REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_change()`.execute(db);

  await sql`UPDATE product_search s SET show_in_listing = p.show_in_listing, is_external = p.is_external, platform = p.platform,
    price_fen = p.price_fen, qc_count = p.qc_count, category_id = p.category_id FROM products p WHERE p.id = s.product_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const trigger of ["insert", "update", "delete"]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`product_search_vocabulary_${trigger}`)} ON product_search`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS search_vocabulary_change`.execute(db);
  await sql`CREATE TRIGGER product_search_vocabulary AFTER INSERT OR DELETE OR UPDATE OF words ON product_search
    FOR EACH ROW EXECUTE FUNCTION search_vocabulary_count()`.execute(db);
  await sql`DROP TRIGGER IF EXISTS products_search_insert ON products`.execute(db);
  await sql`DROP FUNCTION IF EXISTS products_search_index_inserted`.execute(db);
  await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products FOR EACH ROW EXECUTE FUNCTION products_search_index()`.execute(
    db,
  );
  await sql`DROP TRIGGER IF EXISTS products_search_filters ON products`.execute(db);
  await sql`DROP FUNCTION IF EXISTS product_search_filters`.execute(db);
  await sql`ALTER TABLE product_search DROP COLUMN show_in_listing, DROP COLUMN is_external, DROP COLUMN platform,
    DROP COLUMN price_fen, DROP COLUMN qc_count, DROP COLUMN category_id`.execute(db);
  await sql`DROP INDEX IF EXISTS products_price_order`.execute(db);
}
