/**
 * The Playwright `test` every e2e file uses: a console.error or an uncaught page error
 * fails the test, and `settings` edits the live database between tests.
 */
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import SQLite from "better-sqlite3";

const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, "..", "..", ".tmp", "e2e-data-3457");

export function withDatabase<T>(fn: (db: SQLite.Database) => T): T {
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export function setSetting(key: string, value: string) {
  withDatabase((db) => db.prepare("UPDATE site_settings SET value = ? WHERE key = ?").run(value, key));
}

export const test = base.extend<{
  /** Patterns of console errors a test expects (e.g. the browser's note on a 404 page). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleError: void;
}>({
  allowedConsoleErrors: async ({}, use) => {
    await use([]);
  },
  failOnConsoleError: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use();
      const unexpected = errors.filter((text) => !allowedConsoleErrors.some((pattern) => pattern.test(text)));
      expect(unexpected, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
