/**
 * Demo data for an empty database (`npm start` with SEED_DEMO=1, or `npm run seed`).
 * Each later domain adds a seeder here; reference data (roles, permissions, settings)
 * lives in migrations, never here.
 */
import type { Kysely } from "kysely";
import { blogSeeder } from "./blog";
import { catalogueSeeder } from "./catalogue";
import type { Database } from "../../db/schema";

export type Seeder<Prepared = void> = {
  name: string;
  /** true when this domain already holds data (then it is left alone) */
  hasData: (db: Kysely<Database>) => Promise<boolean>;
  /**
   * Optional work before the transaction and outside it, such as storing generated
   * images: storeImage() records its upload through the app's own connection, which a
   * running transaction holds. Its result is handed to `run`.
   */
  prepare?: () => Promise<Prepared>;
  /** writes the domain's data; `db` is a transaction */
  run: (db: Kysely<Database>, prepared: Prepared) => Promise<void>;
  /** undoes `prepare` when `run` failed (e.g. removes the stored images) */
  discard?: (prepared: Prepared) => Promise<void>;
};

// each seeder has its own Prepared type
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each seeder's prepared data is its own
const seeders: Seeder<any>[] = [catalogueSeeder, blogSeeder];

/** Runs every seeder whose domain is empty. Returns true when anything was written. */
export async function seedDatabase(db: Kysely<Database>): Promise<boolean> {
  let wrote = false;
  for (const seeder of seeders) {
    if (await seeder.hasData(db)) continue;
    const prepared = seeder.prepare ? await seeder.prepare() : undefined;
    try {
      await db.transaction().execute((trx) => seeder.run(trx, prepared));
    } catch (error) {
      if (seeder.discard) await seeder.discard(prepared).catch(() => undefined);
      throw error;
    }
    wrote = true;
  }
  return wrote;
}
