/**
 * Opens the one SQLite file with the settings every process uses: WAL journal,
 * foreign keys enforced, a busy timeout so concurrent writers wait instead of failing.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type LogEvent,
  type Driver,
  type SqliteDialectConfig,
} from "kysely";
import pg from "pg";
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

/**
 * Transactions begin IMMEDIATE: they take the write lock first, waiting for it as long as
 * busy_timeout allows. A deferred one (kysely's `begin`) reads from a snapshot and asks for
 * the lock at its first write; when another connection (Litestream's, another process)
 * committed in between, SQLite answers SQLITE_BUSY_SNAPSHOT at once, and busy_timeout
 * never applies: 0.2 % of writes failed with Litestream on (issue 35). In this process
 * kysely runs one transaction at a time on the one connection anyway.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/**
 * SQLite changes its schema inside transactions, and kysely's migrator then runs the pending
 * migrations in one: a process stopped half-way through one (a SIGTERM while it starts)
 * leaves the database as it was, not with half a migration's tables made and the
 * migration unrecorded, which failed every later start ("table … already exists").
 * kysely's SqliteAdapter says otherwise only to be cautious.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * The longest a statement should take (issue 37): on SQLite a statement holds the whole
 * process, so one slower than this stalls every request. The app logs each one over it (a
 * warning naming the statement: app/lib/db.server.ts); the benchmark counts those logged
 * while answering requests (docs/performance.md).
 */
export const SLOW_STATEMENT_MS = 50;

/** What `onQuery` hears of each executed query: its SQL and how long it took. */
export type QueryEvent = { sql: string; ms: number };

const queryEvent = (event: LogEvent): QueryEvent => ({ sql: event.query.sql, ms: event.queryDurationMillis });

/** `onQuery` runs once per executed query (the app counts queries per request with it, and reports slow ones). */
export function createKysely(sqlite: SQLite.Database, options: { onQuery?: (event: QueryEvent) => void } = {}): DB {
  const { onQuery } = options;
  return new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    ...(onQuery ? { log: (event: LogEvent) => onQuery(queryEvent(event)) } : {}),
  });
}

/**
 * PostgreSQL (DATABASE_URL): a pool of connections. Numbers come back as numbers, as they
 * do from SQLite: bigint (counts, ids, epoch milliseconds) and numeric (sums, averages)
 * are parsed with Number(); every value the app keeps is far below 2^53.
 */
export function createPostgresPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // a connection held by nothing is closed after a while (instances come and go)
    idleTimeoutMillis: 30_000,
    // a server that does not answer fails the query (and a stop) instead of holding it
    connectionTimeoutMillis: 10_000,
    types: { getTypeParser: postgresTypeParser } as pg.CustomTypesConfig,
  });
  // an idle connection the server drops (a restart, a failover) must not crash the process:
  // the pool replaces it on the next query
  pool.on("error", () => {});
  return pool;
}

const { builtins } = pg.types;

function postgresTypeParser(oid: number, format?: "text" | "binary"): (value: string) => unknown {
  if (oid === builtins.INT8 || oid === builtins.NUMERIC) return Number;
  return pg.types.getTypeParser(oid, format as "text");
}

export function createPostgresKysely(pool: pg.Pool, options: { onQuery?: (event: QueryEvent) => void } = {}): DB {
  const { onQuery } = options;
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery ? { log: (event: LogEvent) => onQuery(queryEvent(event)) } : {}),
  });
}

export type Dialect = "sqlite" | "postgres";

/** Which engine a kysely instance talks to (the few queries that differ branch on it). */
export function dialectOf(db: Pick<Kysely<Database>, "getExecutor">): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
