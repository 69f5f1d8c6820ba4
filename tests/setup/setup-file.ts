/**
 * Per test file: a private DATA_DIR holding a copy of the template database, so app
 * modules (getDb, getEnv) work in-process against a real SQLite file (or, with
 * TEST_DATABASE_URL, a copy of the template PostgreSQL database); and any
 * console.error fails the test that caused it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, inject, vi } from "vitest";
import { TMP_ROOT } from "./paths";
import { createTestDatabase } from "./postgres";

const dataDir = fs.mkdtempSync(path.join(TMP_ROOT, "worker-"));
fs.copyFileSync(inject("templateDb"), path.join(dataDir, "app.db"));
process.env.DATA_DIR = dataDir;
const postgres = inject("postgres");
if (postgres) process.env.DATABASE_URL = createTestDatabase(postgres.prefix, postgres.template);
else delete process.env.DATABASE_URL;
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = "warn";
delete process.env.DATABASE_PATH;
// a developer's own bucket or upload folder never receives a test's files
for (const key of Object.keys(process.env)) if (key.startsWith("UPLOADS_")) delete process.env[key];
delete process.env.PORT;

// a PostgreSQL pool (and its listening connection) would keep the worker alive after the file
if (postgres) {
  afterAll(async () => {
    const { closeDb } = await import("~/lib/db.server");
    await closeDb();
  });
}

let consoleErrors: unknown[][] = [];

beforeEach(() => {
  consoleErrors = [];
  const original = console.error;
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
    original(...args);
  });
});

afterEach(() => {
  if (consoleErrors.length) {
    const first = consoleErrors[0].map(String).join(" ");
    consoleErrors = [];
    throw new Error(`console.error was called during the test: ${first}`);
  }
});
