/**
 * Demo data for an empty database (`npm start` with SEED_DEMO=1, or `npm run seed`).
 * Each later domain adds a seeder here; reference data (roles, permissions, settings)
 * lives in migrations, never here.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema";

export type Seeder = {
  name: string;
  /** true when this domain already holds data (then it is left alone) */
  hasData: (db: Kysely<Database>) => Promise<boolean>;
  run: (db: Kysely<Database>) => Promise<void>;
};

const seeders: Seeder[] = [];

/** Runs every seeder whose domain is empty. Returns true when anything was written. */
export async function seedDatabase(db: Kysely<Database>): Promise<boolean> {
  let wrote = false;
  for (const seeder of seeders) {
    if (await seeder.hasData(db)) continue;
    await db.transaction().execute((trx) => seeder.run(trx));
    wrote = true;
  }
  return wrote;
}
