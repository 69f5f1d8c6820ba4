import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/*
 * Which files run on which engine (docs/testing.md). The suite runs twice in `npm test`:
 * on SQLite (every file but POSTGRES_ONLY), then, with TEST_DATABASE_URL, on PostgreSQL
 * (every file but SQLITE_ONLY). Nothing is skipped: a file is left out only of the run its
 * subject does not exist in.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** about PostgreSQL itself: many instances on one database, the copy into it, its migrations, the search's parity */
const POSTGRES_ONLY = [
  "tests/integration/multi-instance.test.ts",
  "tests/integration/db-copy.test.ts",
  "db/migrate-postgres.test.ts",
  "app/models/product-search-parity.server.test.ts",
];
/** about the SQLite file itself: its backup, restore and replication, its migrations */
const SQLITE_ONLY = [
  "tests/integration/backup.test.ts",
  "server/litestream.test.ts",
  "db/migrate.test.ts",
  "db/connection.test.ts",
  // stops of a server replicating with Litestream
  "tests/integration/stops.test.ts",
  // the README's commands for a shop on SQLite
  "tests/integration/readme-backup.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(onPostgres ? SQLITE_ONLY : POSTGRES_ONLY)],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/setup-file.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
  },
});
