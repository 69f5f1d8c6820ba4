/**
 * The process-wide database handle used by loaders, actions and services.
 * The server migrates before it serves (scripts/start.ts), so this only opens.
 */
import type SQLite from "better-sqlite3";
import { createKysely, openSqlite, type DB } from "../../db/connection";
import { getEnv } from "./env.server";
import { countQuery } from "./request-scope.server";

export type { DB };

type Handle = { sqlite: SQLite.Database; db: DB; dataVersion: SQLite.Statement };

declare global {
  // Survives module reloads in `npm run dev`.
  var __appDb: Handle | undefined;
}

function open(): Handle {
  const sqlite = openSqlite(getEnv().DATABASE_PATH);
  return { sqlite, db: createKysely(sqlite, { onQuery: countQuery }), dataVersion: sqlite.prepare("PRAGMA data_version").pluck() };
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
  globalThis.__appDb ??= open();
  // a prepared statement: pragma() prepares anew on every call, and caches ask on every request
  return globalThis.__appDb.dataVersion.get() as number;
}

/**
 * Turns this connection's automatic WAL checkpoints off (another thread checkpoints, see
 * campaign-worker.server.ts) or back on (SQLite's default, 1,000 pages). Only on an open
 * handle: a closed database is not reopened for it.
 */
export function setAutomaticCheckpoints(on: boolean): void {
  globalThis.__appDb?.sqlite.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
}

export async function closeDb(): Promise<void> {
  const handle = globalThis.__appDb;
  globalThis.__appDb = undefined;
  if (handle) await handle.db.destroy();
}
