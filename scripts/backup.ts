/**
 * `npm run backup -- FILE`: a consistent copy of the live database through SQLite's
 * online backup API (safe while the server is writing). The copy is one self-contained
 * file (journal mode DELETE: no -wal or -shm beside it); `npm run restore -- FILE DIR`
 * puts it back (docs/self-hosting.md).
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { envOrExit, fail } from "../server/lib";

const target = process.argv[2];
if (!target) fail("usage: npm run backup -- <file>");

const env = envOrExit();
if (env.DATABASE_URL)
  fail("npm run backup copies the SQLite file; the app runs on PostgreSQL (DATABASE_URL): back it up with pg_dump (docs/self-hosting.md)");
if (!fs.existsSync(env.DATABASE_PATH)) fail(`no database at ${env.DATABASE_PATH}`);
const destination = path.resolve(target);
if (destination === path.resolve(env.DATABASE_PATH)) fail("the backup file must not be the database itself");
fs.mkdirSync(path.dirname(destination), { recursive: true });

const source = new SQLite(env.DATABASE_PATH, { readonly: true, fileMustExist: true });
source.pragma("busy_timeout = 5000");
try {
  const started = Date.now();
  // All remaining pages in one step: a step-by-step copy restarts whenever another
  // process writes, and could then never finish on a busy database.
  await source.backup(destination, { progress: () => 0x7fffffff });
  // the copy carries the live file's WAL mode; as a file on its own it needs none
  const check = new SQLite(destination);
  check.pragma("journal_mode = DELETE");
  const integrity = check.pragma("integrity_check", { simple: true });
  check.close();
  if (integrity !== "ok") fail(`backup written but integrity_check says: ${integrity}`);
  const size = fs.statSync(destination).size;
  console.log(`backup written to ${destination} (${size} bytes, ${Date.now() - started} ms, integrity ok)`);
} catch (error) {
  fail(`backup failed: ${(error as Error).message}`);
} finally {
  source.close();
}
