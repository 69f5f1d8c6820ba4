/**
 * Runs once before all vitest workers: migrates a template database that each worker
 * (and each server a test starts) copies instead of migrating again.
 */
import fs from "node:fs";
import { createKysely, openSqlite } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { TEMPLATE_DB, TMP_ROOT } from "./paths";

export default async function setup() {
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(TEMPLATE_DB + suffix, { force: true });
  const sqlite = openSqlite(TEMPLATE_DB);
  const db = createKysely(sqlite);
  await migrateToLatest(db);
  // fold the WAL into the main file so a plain copy is complete
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  await db.destroy();
}
