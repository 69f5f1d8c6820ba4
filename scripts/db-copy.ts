/**
 * `npm run db:copy -- <sqlite file> <postgres url>`: copies a SQLite database into an empty
 * PostgreSQL one (docs/self-hosting.md, "Moving to PostgreSQL"). The PostgreSQL database
 * is migrated first; the copy is one transaction (all or nothing) and is checked by
 * counting each table's rows on both sides. The SQLite file is only read (stop the server
 * first, or copy a backup: `npm run backup`).
 *
 * - Rows keep their ids; each id sequence then continues after the highest.
 * - The search tables PostgreSQL keeps (product_search, search_vocabulary) are rebuilt
 *   from the copied products, not copied; SQLite's full-text tables are left behind.
 * - The signing secrets of the SQLite deployment (kept in its database since decision 036,
 *   else secrets.json beside the file) become the instances' shared ones, so signed-in
 *   visitors stay signed in.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import { createPostgresKysely, createPostgresPool } from "../db/connection";
import { migrateToLatest } from "../db/migrate";
import { migrations } from "../db/migrations/index";
import { fail } from "../server/lib";

const [sqliteArgument, postgresUrl] = process.argv.slice(2);
if (!sqliteArgument || !postgresUrl) fail("usage: npm run db:copy -- <sqlite file> <postgres url>");
const sqliteFile = path.resolve(sqliteArgument);
if (!fs.existsSync(sqliteFile)) fail(`no SQLite database at ${sqliteFile}`);
if (!/^postgres(ql)?:\/\//.test(postgresUrl)) fail("the second argument must be a postgres://user:password@host:5432/database URL");

/** Tables PostgreSQL derives from others (rebuilt after the copy) or that only it has. */
const DERIVED = new Set(["product_search", "search_vocabulary", "instance_secrets"]);
/** The tables that, holding any row, make a database "not empty" (the migrations seed others). */
const CONTENT = ["users", "products", "categories", "blog_posts", "qc_images", "uploads", "email_campaigns", "email_templates"];
const BATCH_ROWS = 500;

/** The target as the copy sees it: any table, any columns (read from the catalogue). */
type CopyDb = Kysely<Record<string, Record<string, unknown>>>;

const source = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
source.pragma("busy_timeout = 5000");

const applied = new Set((source.prepare("SELECT name FROM kysely_migration").all() as Array<{ name: string }>).map((row) => row.name));
const missing = Object.keys(migrations).filter((name) => !applied.has(name));
if (missing.length) fail(`${sqliteFile} is not at the latest version (missing ${missing.join(", ")}): run npm run migrate on it first`);

const pool = createPostgresPool(postgresUrl, { max: 2 });
const db = createPostgresKysely(pool);
const started = Date.now();
try {
  await migrateToLatest(db);
  const counts = await (db as unknown as CopyDb).transaction().execute(async (trx) => copyAll(trx));
  const width = Math.max(...counts.map(([table]) => table.length));
  for (const [table, rows] of counts) console.log(`${table.padEnd(width)}  ${rows}`);
  console.log(
    `copied ${counts.length} tables, ${counts.reduce((sum, [, rows]) => sum + rows, 0)} rows in ${Date.now() - started} ms; row counts match`,
  );
} catch (error) {
  fail(`copy failed, nothing was written: ${(error as Error).message}`);
} finally {
  source.close();
  await db.destroy();
}

async function copyAll(trx: CopyDb): Promise<Array<[string, number]>> {
  for (const table of CONTENT) {
    const row = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx);
    if (Number(row.rows[0]?.n) > 0)
      throw new Error(`the PostgreSQL database is not empty (${table} has rows): copy into a new, empty database`);
  }
  const tables = (await copyOrder(trx)).filter((table) => !DERIVED.has(table) && sourceHas(table));
  // what the migrations seeded is replaced by the copy; the copy's own triggers stay off
  // (the search tables are rebuilt at the end, the QC counts come with the products)
  await sql`TRUNCATE ${sql.join(tables.map((table) => sql.table(table)))} RESTART IDENTITY CASCADE`.execute(trx);
  for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER USER`.execute(trx);

  const counts: Array<[string, number]> = [];
  for (const table of tables) {
    const columns = await sharedColumns(trx, table);
    const selfReference = await selfReferenceOf(trx, table);
    let copied = 0;
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length) await trx.insertInto(table).values(batch).execute();
      copied += batch.length;
      batch = [];
    };
    for (const row of rowsInOrder(table, columns, selfReference)) {
      batch.push(row);
      if (batch.length >= BATCH_ROWS) await flush();
    }
    await flush();
    counts.push([table, copied]);
  }

  for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} ENABLE TRIGGER USER`.execute(trx);
  await continueSequences(trx, tables);
  await sql`SELECT product_search_refresh(ARRAY(SELECT id FROM products))`.execute(trx);
  // the planner's statistics of the new rows (autovacuum would take its time)
  await sql`ANALYZE`.execute(trx);
  await copySecrets(trx);

  for (const [table, copied] of counts) {
    const there = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx)).rows[0]?.n);
    const here = (source.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    if (there !== here || copied !== here) throw new Error(`${table}: ${here} rows in SQLite, ${there} in PostgreSQL`);
  }
  return counts;
}

function sourceHas(table: string): boolean {
  return Boolean(source.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table));
}

/** The base tables of the public schema, each after the tables its foreign keys point at. */
async function copyOrder(trx: CopyDb): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables
    WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%' ORDER BY tablename`.execute(trx);
  const { rows: references } = await sql<{ child: string; parent: string }>`SELECT c.conrelid::regclass::text AS child,
      c.confrelid::regclass::text AS parent
    FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid <> c.confrelid`.execute(trx);
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const reference of references) if (reference.child === table) place(reference.parent, path);
    placed.add(table);
    order.push(table);
  };
  for (const { name } of tables) place(name, new Set());
  return order;
}

async function sharedColumns(trx: CopyDb, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`.execute(trx);
  const here = new Set(
    (source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>).map((row) => row.name),
  );
  return rows.map((row) => row.name).filter((name) => here.has(name));
}

/** The column of a table that points at the table itself (a category's parent), if any. */
async function selfReferenceOf(trx: CopyDb, table: string): Promise<string | null> {
  const { rows } = await sql<{ column: string }>`SELECT a.attname AS column FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.contype = 'f' AND c.conrelid = c.confrelid AND c.conrelid = ${table}::regclass`.execute(trx);
  return rows[0]?.column ?? null;
}

/** A table's rows, a row pointing at another of the same table after that one. */
function* rowsInOrder(table: string, columns: string[], selfReference: string | null): Generator<Record<string, unknown>> {
  const list = columns.map((column) => `"${column}"`).join(", ");
  const statement = source.prepare(`SELECT ${list} FROM "${table}"${columns.includes("id") ? " ORDER BY id" : ""}`);
  if (!selfReference) {
    yield* statement.iterate() as IterableIterator<Record<string, unknown>>;
    return;
  }
  const rows = statement.all() as Array<Record<string, unknown>>;
  const done = new Set<unknown>();
  let waiting = rows;
  while (waiting.length) {
    const ready = waiting.filter((row) => row[selfReference] === null || done.has(row[selfReference]));
    // a loop in the data (never made by the app) is copied as it is and fails on its key
    const next = ready.length ? ready : waiting;
    for (const row of next) {
      done.add(row.id);
      yield row;
    }
    const taken = new Set(next);
    waiting = waiting.filter((row) => !taken.has(row));
  }
}

/** Each identity column's sequence continues after the highest copied id. */
async function continueSequences(trx: CopyDb, tables: string[]): Promise<void> {
  const { rows } = await sql<{ table: string; column: string }>`SELECT table_name AS table, column_name AS column
    FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'`.execute(trx);
  for (const { table, column } of rows) {
    if (!tables.includes(table)) continue;
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}),
      coalesce((SELECT max(${sql.ref(column)}) FROM ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
}

/** The SQLite deployment's signing secrets: the database's own (since decision 036), else secrets.json beside the file. */
function sourceSecrets(): Record<string, unknown> {
  const kept = sourceHas("instance_secrets")
    ? Object.fromEntries(
        (source.prepare("SELECT name, value FROM instance_secrets").all() as Array<{ name: string; value: string }>).map((row) => [
          row.name,
          row.value,
        ]),
      )
    : {};
  if (typeof kept.SESSION_SECRET === "string" && typeof kept.JWT_SECRET === "string") return kept;
  const file = path.join(path.dirname(sqliteFile), "secrets.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) : {};
}

async function copySecrets(trx: CopyDb): Promise<void> {
  const secrets = sourceSecrets();
  for (const name of ["SESSION_SECRET", "JWT_SECRET"]) {
    const value = secrets[name];
    if (typeof value !== "string") continue;
    await trx
      .insertInto("instance_secrets")
      .values({ name, value })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
      .execute();
  }
}
