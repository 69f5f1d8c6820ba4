/**
 * Opens the one SQLite file with the settings every process uses: WAL journal,
 * foreign keys enforced, a busy timeout so concurrent writers wait instead of failing.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "./schema";
import { searchGrams } from "./search-grams";

export type DB = Kysely<Database>;

export function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // called by the products triggers to keep the short-term search index (see the
  // catalogue migration); a connection without it cannot write products
  sqlite.function("search_grams", { deterministic: true }, (text: unknown) => searchGrams(typeof text === "string" ? text : null));
  return sqlite;
}

/** `onQuery` runs once per executed query (the app counts queries per request with it). */
export function createKysely(sqlite: SQLite.Database, options: { onQuery?: () => void } = {}): DB {
  const { onQuery } = options;
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    ...(onQuery ? { log: () => onQuery() } : {}),
  });
}
