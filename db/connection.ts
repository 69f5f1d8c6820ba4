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

const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as kysely sees it, with prepared statements kept by their SQL text:
 * kysely prepares every query afresh, and preparing costs more than running a small one.
 * (Statements are run to completion synchronously, so sharing one is safe.)
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (statement) {
      // most recently used last: the oldest is the one dropped
      statements.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    }
    statements.set(source, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `onQuery` runs once per executed query (the app counts queries per request with it). */
export function createKysely(sqlite: SQLite.Database, options: { onQuery?: () => void } = {}): DB {
  const { onQuery } = options;
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    ...(onQuery ? { log: () => onQuery() } : {}),
  });
}
