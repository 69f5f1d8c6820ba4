import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// Many instances on one PostgreSQL database (docs/decisions/030-postgresql.md). Nothing
// changes on SQLite (one process owns the file; its data_version tells of other writers).
// - instr(): SQLite's function, which the app's queries share.
// - Change notifications: each commit that changes what pages show notifies the channel
//   app_changes (once per transaction and kind: PostgreSQL folds equal notifications), and
//   every instance drops its stored pages and kept answers (app/lib/db.server.ts,
//   ChangeFeed). View counts, written all day, do not notify.
// - instance_secrets: the signing secrets, made once and shared by every instance, when
//   SESSION_SECRET and JWT_SECRET are not given (a session signed by one instance is
//   read by the others).

/** The tables whose changes show on pages, by kind. */
const CONTENT_TABLES: Array<[table: string, kind: "content" | "blog"]> = [
  ["product_skus", "content"],
  ["categories", "content"],
  ["qc_images", "content"],
  ["site_settings", "content"],
  ["exchange_rates", "content"],
  ["exchange_rate_state", "content"],
  ["agents", "content"],
  ["search_aliases", "content"],
  ["listing_watch", "content"],
  ["price_history", "content"],
  ["blog_categories", "blog"],
  ["blog_tags", "blog"],
  ["blog_post_tags", "blog"],
  ["blog_comments", "blog"],
  ["blog_post_likes", "blog"],
  ["blog_comment_likes", "blog"],
  ["blog_settings", "blog"],
];

/** Tables with a view count: any change but the count's alone notifies. */
const COUNTED_TABLES: Array<[table: string, kind: "content" | "blog"]> = [
  ["products", "content"],
  ["blog_posts", "blog"],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // SQLite's instr() (the position of a text in another, 0 when absent), which the app's
  // queries use to ask "contains" without LIKE's wildcards
  await sql`CREATE FUNCTION instr(haystack text, needle text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT strpos(haystack, needle) $$`.execute(db);
  await sql`CREATE FUNCTION notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('app_changes', TG_ARGV[0]);
      RETURN NULL;
    END $$`.execute(db);
  for (const [table, kind] of CONTENT_TABLES) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_notify`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION notify_change(${sql.lit(kind)})`.execute(db);
  }
  for (const [table, kind] of COUNTED_TABLES) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_notify`)} AFTER INSERT OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION notify_change(${sql.lit(kind)})`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_notify_update`)} AFTER UPDATE ON ${sql.table(table)}
      FOR EACH ROW WHEN (to_jsonb(OLD) - 'view_count' IS DISTINCT FROM to_jsonb(NEW) - 'view_count')
      EXECUTE FUNCTION notify_change(${sql.lit(kind)})`.execute(db);
  }
  // the names and pictures pages show beside QC sets and comments
  await sql`CREATE TRIGGER users_notify AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.avatar_url IS DISTINCT FROM NEW.avatar_url)
    EXECUTE FUNCTION notify_change('content')`.execute(db);
  await sql`CREATE TRIGGER users_notify_delete AFTER DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_change('content')`.execute(
    db,
  );

  await db.schema
    .createTable("instance_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.dropTable("instance_secrets").ifExists().execute();
  await sql`DROP TRIGGER IF EXISTS users_notify ON users`.execute(db);
  await sql`DROP TRIGGER IF EXISTS users_notify_delete ON users`.execute(db);
  for (const [table] of [...CONTENT_TABLES, ...COUNTED_TABLES]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_notify`)} ON ${sql.table(table)}`.execute(db);
  }
  for (const [table] of COUNTED_TABLES) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_notify_update`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS notify_change`.execute(db);
  await sql`DROP FUNCTION IF EXISTS instr(text, text)`.execute(db);
}
