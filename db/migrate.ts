import { Migrator, type Kysely, type MigrationResultSet } from "kysely";
import { migrations } from "./migrations/index";

/** Applies every pending migration. Throws (with the failing name) on failure. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
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
