/** `npm run seed`: migrates, then seeds demo data into empty domains. */
import { closeDb, getDb } from "../app/lib/db.server";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { envOrExit } from "./lib";

envOrExit();
const db = getDb();
await migrateToLatest(db);
console.log((await seedDatabase(db)) ? "demo data seeded" : "nothing to seed: the demo domains already hold data");
await closeDb();
