/**
 * The database of a test's DATA_DIR, opened from the test itself: whichever engine the
 * folder uses (its PostgreSQL database named in `<dataDir>/.test-database-url`, see
 * tests/setup/postgres.ts, or else the SQLite file `<dataDir>/app.db`), with the project's
 * own connection code (db/connection.ts). For setting up states the API cannot reach and
 * for checking what the server wrote.
 *
 * Queries must run on both engines: kysely's builder, or `sql` with its parameters (never
 * `?`); booleans are 0/1 integers and dates ISO text on both; compare integers with numbers.
 */
import fs from "node:fs";
import path from "node:path";
import { sql, type RawBuilder } from "kysely";
import { createKysely, createPostgresKysely, createPostgresPool, openSqlite, type DB, type Dialect } from "../../db/connection";
import { databaseUrlOf } from "./postgres";

export type ServerDb = DB & {
  /** the engine the folder's database runs on */
  readonly engine: Dialect;
  /** closes the connection (SQLite) or the pool (PostgreSQL): kysely's destroy() */
  close(): Promise<void>;
};

/**
 * Opens the server's database of `dataDir` (kysely connects lazily: nothing is reached
 * before the first query). Close it with `close()`. A SQLite file that is not there is an
 * error, unless `create` (a test that sets up a database before the server's first start).
 */
export function openServerDb(dataDir: string, options: { create?: boolean } = {}): ServerDb {
  const url = databaseUrlOf(dataDir);
  let db: DB;
  if (url) {
    db = createPostgresKysely(createPostgresPool(url, { max: 2 }));
  } else {
    const file = path.join(dataDir, "app.db");
    if (!options.create && !fs.existsSync(file)) throw new Error(`no database in ${dataDir}`);
    db = createKysely(openSqlite(file));
  }
  return Object.assign(db, { engine: url ? ("postgres" as const) : ("sqlite" as const), close: () => db.destroy() });
}

/** Opens the server's database of `dataDir`, runs `fn` and closes it again. */
export async function withServerDb<T>(dataDir: string, fn: (db: ServerDb) => Promise<T>): Promise<T> {
  const db = openServerDb(dataDir);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** The rows of a query written in SQL. */
export async function rows<T>(db: DB, query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

/** The first row of a query written in SQL (undefined when there is none). */
export async function row<T>(db: DB, query: RawBuilder<T>): Promise<T | undefined> {
  return (await query.execute(db)).rows[0];
}

/** Runs a statement written in SQL; answers how many rows it changed. */
export async function run(db: DB, statement: RawBuilder<unknown>): Promise<number> {
  return Number((await statement.execute(db)).numAffectedRows ?? 0);
}

export { sql };
