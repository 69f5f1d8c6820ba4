/**
 * `npm run restore -- <backup file | replica> <folder>`: puts a database back into a new
 * data folder (docs/self-hosting.md, "Restoring"), then checks it: SQLite's
 * integrity_check and the rows of every table, printed.
 *
 * The source is a file made by `npm run backup`, or a Litestream replica (a folder, or an
 * s3:// URL as LITESTREAM_REPLICA_URL takes it). The folder must not hold a database yet:
 * nothing is ever written over. Uploads are files beside the database: copy the uploads
 * folder too (uploads in a bucket, UPLOADS_S3_*, stay where they are). Then start the
 * server with DATA_DIR set to the folder.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { fail } from "../server/lib";
import { restoreFromReplica } from "../server/litestream";

const [source, folder] = process.argv.slice(2);
if (!source || !folder) fail("usage: npm run restore -- <backup file | replica folder | s3://bucket/path> <new data folder>");

const target = path.resolve(folder);
const database = path.join(target, "app.db");
for (const file of [database, `${database}-wal`, `${database}-shm`]) {
  if (fs.existsSync(file)) fail(`${file} exists: restore into a new folder (nothing is written over)`);
}
fs.mkdirSync(target, { recursive: true });

/** Whether a path is an SQLite database file (its first 16 bytes say so). */
function isSqliteFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    const header = Buffer.alloc(16);
    const fd = fs.openSync(file, "r");
    fs.readSync(fd, header, 0, 16, 0);
    fs.closeSync(fd);
    return header.toString("latin1") === "SQLite format 3\u0000";
  } catch {
    return false;
  }
}

const started = Date.now();
if (isSqliteFile(source)) {
  // through SQLite's backup API: a file still in WAL mode, or one being written, copies whole
  const from = new SQLite(path.resolve(source), { readonly: true, fileMustExist: true });
  try {
    await from.backup(database, { progress: () => 0x7fffffff });
  } finally {
    from.close();
  }
  console.log(`copied the backup ${path.resolve(source)} to ${database}`);
} else {
  try {
    const { restored } = restoreFromReplica(source, database);
    if (!restored) fail(`the replica ${source} holds no database`);
  } catch (error) {
    fail((error as Error).message);
  }
  console.log(`restored the replica ${source} to ${database}`);
}

const check = new SQLite(database);
try {
  check.pragma("journal_mode = DELETE");
  const integrity = check.pragma("integrity_check", { simple: true });
  if (integrity !== "ok") fail(`restored, but integrity_check says: ${integrity}`);
  const tables = (
    check
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_litestream%' ESCAPE '\\' ORDER BY name",
      )
      .all() as Array<{ name: string }>
  ).map((row) => row.name);
  console.log(`integrity ok; rows per table:`);
  for (const table of tables) {
    // FTS shadow tables count with their parent
    if (/_(data|idx|content|docsize|config)$/.test(table)) continue;
    const { n } = check.prepare(`SELECT count(*) AS n FROM "${table.replace(/"/g, '""')}"`).get() as { n: number };
    console.log(`  ${table.padEnd(32)} ${n}`);
  }
} finally {
  check.close();
}
console.log(
  `done in ${((Date.now() - started) / 1000).toFixed(1)} s. Copy the uploads folder into ${path.join(target, "uploads")} (not with uploads in a bucket), then start with DATA_DIR=${target}`,
);
