/**
 * The signing secrets every instance on one PostgreSQL database shares when the
 * environment does not give them (migration 20261128090000_instances): the first instance
 * to start stores its own; every later one adopts what is stored, so a session or token
 * signed by one is read by all.
 */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";

export type SigningSecrets = { SESSION_SECRET: string; JWT_SECRET: string };

export async function sharedSecrets(db: DB, proposed: SigningSecrets): Promise<SigningSecrets> {
  const names = Object.keys(proposed) as Array<keyof SigningSecrets>;
  await sql`INSERT INTO instance_secrets (name, value)
    VALUES ${sql.join(names.map((name) => sql`(${name}, ${proposed[name]})`))}
    ON CONFLICT (name) DO NOTHING`.execute(db);
  const { rows } = await sql<{ name: keyof SigningSecrets; value: string }>`SELECT name, value FROM instance_secrets
    WHERE name IN (${sql.join(names)})`.execute(db);
  const stored = Object.fromEntries(rows.map((row) => [row.name, row.value])) as Partial<SigningSecrets>;
  return { SESSION_SECRET: stored.SESSION_SECRET ?? proposed.SESSION_SECRET, JWT_SECRET: stored.JWT_SECRET ?? proposed.JWT_SECRET };
}
