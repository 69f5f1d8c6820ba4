/**
 * Runs once before all vitest workers: migrates a template database that each worker
 * (and each server a test starts) copies instead of migrating again. Each run has its
 * own template, so two runs side by side never share one.
 */
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { spawnSync } from "node:child_process";
import { createKysely, createPostgresKysely, createPostgresPool, openSqlite } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { TMP_ROOT } from "./paths";
import { postgresAdmin, postgresUrl, TEST_POSTGRES_URL } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    /** on PostgreSQL (TEST_DATABASE_URL): the migrated template database and the run's prefix for database names */
    postgres: { template: string; prefix: string } | null;
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
  const postgres = TEST_POSTGRES_URL ? await migratePostgresTemplate(path.basename(runDir)) : null;
  project.provide("postgres", postgres);
  return () => {
    fs.rmSync(runDir, { recursive: true, force: true });
    if (postgres) dropRunDatabases(postgres.prefix);
  };
}

async function migratePostgresTemplate(runName: string): Promise<{ template: string; prefix: string }> {
  const prefix = `qc_test_${runName.replace(/[^a-z0-9]/gi, "").toLowerCase()}`;
  const template = `${prefix}_template`;
  postgresAdmin(`CREATE DATABASE ${template} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`);
  const pool = createPostgresPool(postgresUrl(template), { max: 1 });
  const db = createPostgresKysely(pool);
  await migrateToLatest(db);
  await db.destroy();
  return { template, prefix };
}

/**
 * Drops every database of this run (a server still connected is cut off). A database
 * PostgreSQL will not let go of yet (its autovacuum worker, which the test role may not
 * stop, is at work in it) is tried again, then left with a warning: it takes disk, not
 * a result, and failing the run for it would hide the results.
 */
function dropRunDatabases(prefix: string): void {
  const list = spawnSync("psql", [TEST_POSTGRES_URL!, "-qAtc", `SELECT datname FROM pg_database WHERE datname LIKE '${prefix}%'`], {
    encoding: "utf8",
  });
  for (const name of list.stdout.split("\n").filter(Boolean)) {
    for (let attempt = 1; ; attempt++) {
      try {
        postgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        break;
      } catch (error) {
        if (attempt === 5) {
          console.warn(`test databases: ${name} left behind: ${(error as Error).message}`);
          break;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500 * attempt);
      }
    }
  }
}
