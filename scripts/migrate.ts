/** `npm run migrate`: applies pending migrations; exits non-zero on failure. */
import { closeDb, databaseDescription, getDb } from "../app/lib/db.server";
import { migrateToLatest } from "../db/migrate";
import { envOrExit, fail } from "../server/lib";

envOrExit();
try {
  const applied = await migrateToLatest(getDb());
  console.log(applied.length ? `applied: ${applied.join(", ")}` : `up to date (${databaseDescription()})`);
} catch (error) {
  fail(`migration failed: ${(error as Error).message}`);
} finally {
  await closeDb();
}
