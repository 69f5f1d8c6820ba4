import { Migrator, type Kysely, type MigrationResultSet } from "kysely";
import { migrations } from "./migrations/index";
import { forMigrations } from "./migrations/portable";

/** Applies every pending migration. Throws (with the failing name) on failure. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    // on PostgreSQL, through the translation of SQLite's schema words (migrations/portable.ts)
    db: forMigrations(db),
    provider: { getMigrations: async () => migrations },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  const failed = result.results?.find((r) => r.status === "Error");
  if (result.error || failed) {
    const name = failed?.migrationName ?? "unknown";
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${name} failed: ${cause}`);
  }
  return (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
