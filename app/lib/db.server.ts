/**
 * The process-wide database handle used by loaders, actions and services: the SQLite file
 * (DATABASE_PATH), or PostgreSQL when DATABASE_URL is set (docs/decisions/030-postgresql.md).
 * The server migrates before it serves (server/start.ts), so this only opens.
 */
import type SQLite from "better-sqlite3";
import type pg from "pg";
import {
  createKysely,
  createPostgresKysely,
  createPostgresPool,
  openSqlite,
  SLOW_STATEMENT_MS,
  type DB,
  type Dialect,
  type QueryEvent,
} from "../../db/connection";
import { getEnv } from "./env.server";
import { countQuery, inRequest } from "./request-scope.server";
import { log } from "./log.server";

export type { DB, Dialect };

type SqliteHandle = {
  dialect: "sqlite";
  sqlite: SQLite.Database;
  db: DB;
  dataVersion: SQLite.Statement;
  seenVersion: number;
  seenAt: number;
};
type PostgresHandle = { dialect: "postgres"; pool: pg.Pool; db: DB; changes: ChangeFeed };
type Handle = SqliteHandle | PostgresHandle;

declare global {
  // Survives module reloads in `npm run dev`.
  var __appDb: Handle | undefined;
}

/**
 * Who copies the WAL back into the database file: Litestream when it replicates the file
 * (LITESTREAM_REPLICA_URL: it must see every WAL page before it is checkpointed, so it
 * checkpoints itself), else SQLite's automatic checkpoints, handed to the campaign worker
 * while it sends (setAutomaticCheckpoints()).
 */
export function checkpointsByLitestream(): boolean {
  return Boolean(getEnv().LITESTREAM_REPLICA_URL);
}

/** Counts a query for its request, and reports it when it took longer than SLOW_STATEMENT_MS. */
function noteQuery(event: QueryEvent): void {
  countQuery();
  if (event.ms <= SLOW_STATEMENT_MS) return;
  const statement = event.sql.replace(/\s+/g, " ").slice(0, 300);
  log.warn(`slow statement: ${event.ms.toFixed(0)} ms ${inRequest() ? "answering a request" : "in the background"}: ${statement}`);
}

function open(): Handle {
  const { DATABASE_URL } = getEnv();
  if (DATABASE_URL) {
    const pool = createPostgresPool(DATABASE_URL);
    return { dialect: "postgres", pool, db: createPostgresKysely(pool, { onQuery: noteQuery }), changes: new ChangeFeed(pool) };
  }
  const sqlite = openSqlite(getEnv().DATABASE_PATH);
  if (checkpointsByLitestream()) sqlite.pragma("wal_autocheckpoint = 0");
  return {
    dialect: "sqlite",
    sqlite,
    db: createKysely(sqlite, { onQuery: noteQuery }),
    dataVersion: sqlite.prepare("PRAGMA data_version").pluck(),
    seenVersion: 0,
    seenAt: -Infinity,
  };
}

export function getDb(): DB {
  globalThis.__appDb ??= open();
  return globalThis.__appDb.db;
}

/** Resolves when the database answers a query (the health check); throws when it does not. */
export async function databaseAnswers(): Promise<void> {
  const handle = (globalThis.__appDb ??= open());
  if (handle.dialect === "sqlite") {
    if (!handle.sqlite.prepare("SELECT count(*) AS n FROM site_settings").get()) throw new Error("no answer");
    return;
  }
  await handle.pool.query("SELECT count(*) AS n FROM site_settings");
}

/** Where the data is, for messages: the SQLite file, or PostgreSQL's host and database (never the password). */
export function databaseDescription(): string {
  const { DATABASE_URL, DATABASE_PATH } = getEnv();
  if (!DATABASE_URL) return DATABASE_PATH;
  const url = new URL(DATABASE_URL);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

/** A number of PostgreSQL's advisory locks (any constant the app uses nowhere else): the start's. */
const STARTUP_LOCK = 24_0001;

/**
 * Runs `work` (migrating, seeding, the first admin) while no other instance does: on
 * PostgreSQL instances that start together take turns (a session advisory lock, held on
 * a connection of its own); a SQLite file has one process.
 */
export async function whileStartingAlone<T>(work: () => Promise<T>): Promise<T> {
  const handle = (globalThis.__appDb ??= open());
  if (handle.dialect === "sqlite") return work();
  const client = await handle.pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [STARTUP_LOCK]).catch(() => {});
    client.release();
  }
}

/** Which engine the app runs on. */
export function dialect(): Dialect {
  globalThis.__appDb ??= open();
  return globalThis.__appDb.dialect;
}

/** The raw SQLite handle for the few things kysely does not wrap (backup, the sender's hot path); SQLite only. */
export function getSqlite(): SQLite.Database {
  const handle = (globalThis.__appDb ??= open());
  if (handle.dialect !== "sqlite") throw new Error("getSqlite(): the app runs on PostgreSQL (DATABASE_URL)");
  return handle.sqlite;
}

/**
 * A number that changes when another process changed what pages show. On SQLite its
 * data_version: it changes when another connection (a script, the sqlite3 shell) commits
 * to the file, never for this process's own writes. On PostgreSQL, a count of the
 * notifications the content tables' triggers send at each commit (ChangeFeed), from
 * every instance (this one's own included: one more reading of the caches). Caches of
 * rarely changed data check it to notice other processes' edits.
 */
/** How long a reading of SQLite's data_version stands for (dataVersion()). */
const DATA_VERSION_READ_EVERY_MS = 1;

export function dataVersion(): number {
  const handle = (globalThis.__appDb ??= open());
  if (handle.dialect === "postgres") return handle.changes.version;
  // Read at most once a millisecond: every request the server's front answers asks (a
  // query each time was an eighth of its CPU; once per turn of the event loop, still 6 % of
  // a stored page's, as with ten clients a turn holds about one request), and the requests
  // of one millisecond see the file as it was when it began, as if they had arrived that
  // much earlier.
  const now = performance.now();
  if (now - handle.seenAt >= DATA_VERSION_READ_EVERY_MS) {
    // a prepared statement: pragma() prepares anew on every call
    handle.seenVersion = handle.dataVersion.get() as number;
    handle.seenAt = now;
  }
  return handle.seenVersion;
}

/**
 * Turns this connection's automatic WAL checkpoints off (another thread checkpoints, see
 * campaign-worker.server.ts) or back on (SQLite's default, 1,000 pages). Only on an open
 * handle: a closed database is not reopened for it.
 */
export function setAutomaticCheckpoints(on: boolean): void {
  if (checkpointsByLitestream() || globalThis.__appDb?.dialect !== "sqlite") return;
  globalThis.__appDb.sqlite.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
}

export async function closeDb(): Promise<void> {
  const handle = globalThis.__appDb;
  globalThis.__appDb = undefined;
  if (!handle) return;
  if (handle.dialect === "postgres") await handle.changes.close();
  // kysely ends the pg pool too
  await handle.db.destroy();
}

/** The channel the content tables' triggers notify at each commit (migration 20261128090000_instances). */
export const CHANGES_CHANNEL = "app_changes";

/**
 * Listens to the database's change notifications on a connection of its own, counting
 * them (dataVersion()); reconnects after a lost connection, counting the loss as a
 * change (what was missed meanwhile is unknown).
 */
class ChangeFeed {
  version = 0;
  #client: pg.PoolClient | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  readonly #listeners = new Set<(payload: string) => void>();

  #connecting: Promise<void> | null = null;

  constructor(private readonly pool: pg.Pool) {
    this.#start();
  }

  #start(): void {
    this.#connecting = this.#connect().finally(() => (this.#connecting = null));
  }

  /** Calls `listener` with each notification's payload (the table's kind: "content", "blog"...). */
  subscribe(listener: (payload: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    try {
      const client = await this.pool.connect();
      // closed while connecting: the pool ends only once every client is back
      if (this.#closed) {
        client.release();
        return;
      }
      client.on("notification", (message) => {
        this.version += 1;
        for (const listener of this.#listeners) listener(message.payload ?? "");
      });
      client.on("error", () => this.#lost(client));
      this.#client = client;
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.version += 1;
    } catch {
      this.#schedule();
    }
  }

  #lost(client: pg.PoolClient): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.release(true);
    this.version += 1;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#start();
    }, 1000);
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    // a connection still being made releases itself when it sees #closed (#connect)
    await this.#connecting?.catch(() => {});
    const client = this.#client;
    this.#client = null;
    if (client) {
      await client.query(`UNLISTEN ${CHANGES_CHANNEL}`).catch(() => {});
      client.release();
    }
  }
}

/** Calls `listener` on every change notification (PostgreSQL; on SQLite nothing is sent). */
export function onDatabaseChange(listener: (payload: string) => void): () => void {
  const handle = (globalThis.__appDb ??= open());
  return handle.dialect === "postgres" ? handle.changes.subscribe(listener) : () => {};
}
