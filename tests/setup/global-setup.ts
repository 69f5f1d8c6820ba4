/**
 * Runs once before all vitest workers: migrates a template database that each worker
 * (and each server a test starts) copies instead of migrating again. Each run has its
 * own template, so two runs side by side never share one.
 */
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createKysely, openSqlite } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { TMP_ROOT } from "./paths";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  const runDir = fs.mkdtempSync(path.join(TMP_ROOT, "run-"));
  const templateDb = path.join(runDir, "template.db");
  const sqlite = openSqlite(templateDb);
  const db = createKysely(sqlite);
  await migrateToLatest(db);
  // fold the WAL into the main file so a plain copy is complete
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  await db.destroy();
  project.provide("templateDb", templateDb);
  return () => fs.rmSync(runDir, { recursive: true, force: true });
}
