import fs from "node:fs";
import path from "node:path";
import { Migrator, sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { TMP_ROOT } from "../tests/setup/paths";
import { createKysely, openSqlite } from "./connection";
import { migrateToLatest } from "./migrate";
import { migrations } from "./migrations/index";

function freshDb() {
  const dir = fs.mkdtempSync(path.join(TMP_ROOT, "migrate-"));
  const sqlite = openSqlite(path.join(dir, "app.db"));
  return { sqlite, db: createKysely(sqlite) };
}

describe("migrations", () => {
  it("run in one transaction on SQLite: a migration that fails half-way leaves no table behind, and none of the run", async () => {
    const { sqlite, db } = freshDb();
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () => ({
          "1_first": { up: async (trx: Kysely<any>) => void (await sql`CREATE TABLE first_table (id integer)`.execute(trx)) },
          "2_broken": {
            up: async (trx: Kysely<any>) => {
              await sql`CREATE TABLE half_made (id integer)`.execute(trx);
              throw new Error("stopped half-way");
            },
          },
        }),
      },
    });
    const result = await migrator.migrateToLatest();
    expect(String(result.error)).toContain("stopped half-way");
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('first_table', 'half_made')").all();
    expect(tables).toEqual([]);
    const recorded = sqlite.prepare("SELECT count(*) AS n FROM kysely_migration").get() as { n: number };
    expect(recorded.n).toBe(0);
    await db.destroy();
  });

  it("apply every migration once and are idempotent", async () => {
    const { db } = freshDb();
    const first = await migrateToLatest(db);
    expect(first).toEqual(Object.keys(migrations));
    const settingsBefore = await db.selectFrom("site_settings").selectAll().execute();

    const second = await migrateToLatest(db);
    expect(second).toEqual([]);
    const settingsAfter = await db.selectFrom("site_settings").selectAll().execute();
    expect(settingsAfter).toEqual(settingsBefore);
    await db.destroy();
  });

  it("keep data written between runs", async () => {
    const { db } = freshDb();
    await migrateToLatest(db);
    await db.updateTable("site_settings").set({ value: "Kept" }).where("key", "=", "site_name").execute();
    await migrateToLatest(db);
    const row = await db.selectFrom("site_settings").select("value").where("key", "=", "site_name").executeTakeFirst();
    expect(row?.value).toBe("Kept");
    await db.destroy();
  });

  it("are named by timestamp, in order", () => {
    const names = Object.keys(migrations);
    expect([...names].sort()).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
  });

  it("open the database in WAL mode with foreign keys and a busy timeout", async () => {
    const { sqlite, db } = freshDb();
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
    expect(rows[0].ok).toBe(1);
    await db.destroy();
  });
});
