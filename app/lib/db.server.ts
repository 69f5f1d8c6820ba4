/**
 * The process-wide database handle used by loaders, actions and services.
 * The server migrates before it serves (scripts/start.ts), so this only opens.
 */
import type SQLite from "better-sqlite3";
import { createKysely, openSqlite, type DB } from "../../db/connection";
import { getEnv } from "./env.server";

export type { DB };

type Handle = { sqlite: SQLite.Database; db: DB };

declare global {
  // Survives module reloads in `npm run dev`.
  var __appDb: Handle | undefined;
}

function open(): Handle {
  const sqlite = openSqlite(getEnv().DATABASE_PATH);
  return { sqlite, db: createKysely(sqlite) };
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

export async function closeDb(): Promise<void> {
  const handle = globalThis.__appDb;
  globalThis.__appDb = undefined;
  if (handle) await handle.db.destroy();
}
