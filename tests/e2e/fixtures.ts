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
  /** with JavaScript, each page.goto() returns once the page has hydrated (app/root.tsx marks it) */
  page: import("@playwright/test").Page;
  /** Patterns of console errors a test expects (e.g. the browser's note on a 404 page). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleError: void;
}>({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) {
      // a page hydrates once its language's texts have come (decision 031): a change made
      // before then is the server page's, whose selects wait for their button
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 10_000 }).catch(() => undefined);
        return response;
      };
    }
    await use(page);
  },
  allowedConsoleErrors: async ({}, use) => {
    // Remix logs the AbortError of a page's data fetch that a newer navigation cut short
    // (a click while the previous page is still loading, as people do); the newer page
    // wins and nothing is lost, so it is not a fault of the page
    await use([/^signal is aborted without reason$/]);
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
