/** `npm run seed`: migrates, then seeds demo data into empty domains. */
import { closeDb, getDb } from "../app/lib/db.server";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../server/demo/seed";
import { envOrExit } from "../server/lib";

envOrExit();
const db = getDb();
await migrateToLatest(db);
const started = performance.now();
const seeded = await seedDatabase(db);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(seeded ? `demo data seeded in ${seconds} s` : "nothing to seed: the demo domains already hold data");
await closeDb();
