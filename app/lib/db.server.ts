/**
 * The process-wide database handle used by loaders, actions and services.
 * The server migrates before it serves (scripts/start.ts), so this only opens.
 */
import type SQLite from "better-sqlite3";
import { createKysely, openSqlite, type DB } from "../../db/connection";
import { getEnv } from "./env.server";
import { countQuery } from "./request-scope.server";

export type { DB };

type Handle = { sqlite: SQLite.Database; db: DB; dataVersion: SQLite.Statement; seenVersion: number | null };

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

function open(): Handle {
  const sqlite = openSqlite(getEnv().DATABASE_PATH);
  if (checkpointsByLitestream()) sqlite.pragma("wal_autocheckpoint = 0");
  return {
    sqlite,
    db: createKysely(sqlite, { onQuery: countQuery }),
    dataVersion: sqlite.prepare("PRAGMA data_version").pluck(),
    seenVersion: null,
  };
}

export function getDb(): DB {
  globalThis.__appDb ??= open();
  return globalThis.__appDb.db;
}

/** Raw handle for the few things kysely does not wrap (health check, backup). */
export function getSqlite(): SQLite.Database {
  globalThis.__appDb ??= open();
  return globalThis.__appDb.sqlite;
}

/**
 * SQLite's data_version: it changes when another connection (a script, the sqlite3 shell)
 * commits to the file, never for this process's own writes. Caches of rarely changed
 * data check it to notice outside edits.
 */
export function dataVersion(): number {
  const handle = (globalThis.__appDb ??= open());
  // Read once per turn of the event loop: every request the server's front answers asks
  // (a query each time was an eighth of its CPU), and the requests of one turn see the
  // file as it was when the turn began, as if they had arrived a moment earlier.
  if (handle.seenVersion === null) {
    // a prepared statement: pragma() prepares anew on every call
    handle.seenVersion = handle.dataVersion.get() as number;
    setImmediate(() => (handle.seenVersion = null));
  }
  return handle.seenVersion;
}

/**
 * Turns this connection's automatic WAL checkpoints off (another thread checkpoints, see
 * campaign-worker.server.ts) or back on (SQLite's default, 1,000 pages). Only on an open
 * handle: a closed database is not reopened for it.
 */
export function setAutomaticCheckpoints(on: boolean): void {
  if (checkpointsByLitestream()) return;
  globalThis.__appDb?.sqlite.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
}

export async function closeDb(): Promise<void> {
  const handle = globalThis.__appDb;
  globalThis.__appDb = undefined;
  if (handle) await handle.db.destroy();
}
