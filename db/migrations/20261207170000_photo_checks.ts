import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Checked photo matches (issue 38, docs/decisions/050-checked-photo-matches.md): each
// fingerprint's window checks (19 × 256 bits as hex, 64 digits a window). Rows made before
// have none: the photo sync reads their pictures again and replaces them (a row is still
// never changed), found through the partial index.
// And the readable rows by id: an index loading from nothing read them among every
// unreadable one (a catalogue whose pictures are on hosts that answer nothing: 54 ms a
// batch at 500,000 rows).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photo_fingerprints").addColumn("checks", "text").execute();
  await sql`CREATE INDEX photo_fingerprints_unchecked ON photo_fingerprints (id) WHERE checks IS NULL AND hashes IS NOT NULL`.execute(db);
  await sql`CREATE INDEX photo_fingerprints_readable ON photo_fingerprints (id) WHERE hashes IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS photo_fingerprints_readable`.execute(db);
  await sql`DROP INDEX IF EXISTS photo_fingerprints_unchecked`.execute(db);
  await db.schema.alterTable("photo_fingerprints").dropColumn("checks").execute();
}
