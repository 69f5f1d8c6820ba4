/**
 * The tests' PostgreSQL side (docs/testing.md): with TEST_DATABASE_URL set (a role that may
 * create databases, e.g. postgres://app:app@127.0.0.1:5432/postgres), the global setup
 * migrates one template database per run, and each test file, and each server a test
 * starts, gets its own copy (CREATE DATABASE ... TEMPLATE: a few milliseconds). Without
 * it, everything runs on SQLite files as before.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL || undefined;

/** The address of database `name` on the test server. */
export function postgresUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement as the test role (synchronously: makeDataDir() is synchronous). */
export function postgresAdmin(statement: string): void {
  const result = spawnSync("psql", [TEST_POSTGRES_URL!, "-v", "ON_ERROR_STOP=1", "-qAtc", statement], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`psql failed (${statement}): ${result.stderr || result.error}`);
}

/**
 * A new database for a test (a copy of the run's migrated template, or empty), its name
 * starting with the run's prefix so the teardown finds it. Returns its URL.
 */
export function createTestDatabase(prefix: string, template: string | null): string {
  const name = `${prefix}_${crypto.randomBytes(5).toString("hex")}`;
  postgresAdmin(`CREATE DATABASE ${name} TEMPLATE ${template ?? "template0"} ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`);
  return postgresUrl(name);
}

/** The file in a test's DATA_DIR naming its database (read by startTestServer and runScript). */
export const DATABASE_URL_FILE = ".test-database-url";

export function databaseUrlOf(dataDir: string | undefined): string | undefined {
  if (!dataDir) return undefined;
  try {
    return fs.readFileSync(path.join(dataDir, DATABASE_URL_FILE), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}
