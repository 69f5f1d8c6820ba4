/**
 * Per test file: a private DATA_DIR holding a copy of the template database, so app
 * modules (getDb, getEnv) work in-process against a real SQLite file; and any
 * console.error fails the test that caused it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, inject, vi } from "vitest";
import { TMP_ROOT } from "./paths";

const dataDir = fs.mkdtempSync(path.join(TMP_ROOT, "worker-"));
fs.copyFileSync(inject("templateDb"), path.join(dataDir, "app.db"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = "warn";
delete process.env.DATABASE_PATH;
delete process.env.UPLOADS_DIR;
delete process.env.PORT;

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
