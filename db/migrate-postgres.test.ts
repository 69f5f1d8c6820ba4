/**
 * The migrations on PostgreSQL (PostgreSQL runs only; docs/decisions/030-postgresql.md):
 * a new database gets every one once, in order; instances that start together do not
 * apply any twice; the translation of SQLite's schema words holds (bigint keys that
 * continue after copied ids, case-insensitive names, ISO dates by default).
 */
import { sql } from "kysely";
import { describe, expect, inject, it } from "vitest";
import { createTestDatabase } from "../tests/setup/postgres";
import { createPostgresKysely, createPostgresPool } from "./connection";
import { migrateToLatest } from "./migrate";
import { migrations } from "./migrations/index";

const postgres = inject("postgres")!;

function freshDb() {
  return createPostgresKysely(createPostgresPool(createTestDatabase(postgres.prefix, null), { max: 4 }));
}

describe("migrations on PostgreSQL", () => {
  it("apply every migration once, in order, and a second run applies nothing", async () => {
    const db = freshDb();
    try {
      expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
      expect(await migrateToLatest(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it("instances migrating one new database at the same time apply each migration once", async () => {
    const url = createTestDatabase(postgres.prefix, null);
    const instances = [0, 1, 2].map(() => createPostgresKysely(createPostgresPool(url, { max: 2 })));
    try {
      const applied = await Promise.all(instances.map((db) => migrateToLatest(db)));
      expect(applied.flat().sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      await Promise.all(instances.map((db) => db.destroy()));
    }
  });

  it("say SQLite's schema words in PostgreSQL's: bigint identity keys, citext names, ISO text dates, 8-byte reals", async () => {
    const db = freshDb();
    try {
      await migrateToLatest(db);
      const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_identity: string }>`
        SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns
        WHERE table_schema = 'public' AND (table_name, column_name) IN
          (('users', 'id'), ('users', 'email'), ('users', 'created_at'), ('jobs', 'run_at'), ('exchange_rates', 'manual_rate'))
        ORDER BY table_name, column_name`.execute(db);
      expect(
        columns.rows.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}${c.is_identity === "YES" ? " identity" : ""}`),
      ).toEqual([
        "exchange_rates.manual_rate double precision",
        "jobs.run_at bigint",
        "users.created_at text",
        "users.email USER-DEFINED",
        "users.id bigint identity",
      ]);
      const user = await db
        .insertInto("users")
        .values({ username: "Casey", email: "Casey@Example.com" })
        .returning(["id", "created_at"])
        .executeTakeFirstOrThrow();
      expect(user.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      // NOCASE on SQLite, citext here: the same address in other letters is the same person
      const found = await db.selectFrom("users").select("id").where("email", "=", "casey@example.COM").executeTakeFirst();
      expect(found?.id).toBe(user.id);
      await expect(db.insertInto("users").values({ username: "casey", email: "other@example.com" }).execute()).rejects.toThrow(/unique/);
      // an epoch in milliseconds fits, and comes back as a number
      const job = await db
        .insertInto("jobs")
        .values({ name: "x", run_at: 1_795_714_519_866 })
        .returning("run_at")
        .executeTakeFirstOrThrow();
      expect(job.run_at).toBe(1_795_714_519_866);
    } finally {
      await db.destroy();
    }
  });
});
