/**
 * Writes never fail for a busy snapshot (issue 35): a transaction that reads and then
 * writes while another connection (Litestream's, a script's) commits in between. Deferred
 * (`begin`), its write got SQLITE_BUSY_SNAPSHOT at once, busy_timeout or not; IMMEDIATE, it
 * holds the write lock from its start and the other connection waits its turn.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { TMP_ROOT } from "../tests/setup/paths";
import { createKysely, openSqlite } from "./connection";
import { migrateToLatest } from "./migrate";

async function migrated() {
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  const file = path.join(fs.mkdtempSync(path.join(TMP_ROOT, "connection-")), "app.db");
  const db = createKysely(openSqlite(file));
  await migrateToLatest(db);
  return { file, db };
}

describe("transactions on SQLite", () => {
  it("take the write lock first: another connection's commit waits, and the read-then-write never fails", async () => {
    const { file, db } = await migrated();
    const other = new SQLite(file);
    // the other connection does not wait: what it meets is seen at once
    other.pragma("busy_timeout = 0");
    let otherCommitted: boolean | null = null;
    await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("site_settings").select("value").where("key", "=", "site_name").executeTakeFirstOrThrow();
      // another connection commits between this transaction's read and its write
      try {
        other.prepare("UPDATE site_settings SET value = 'Other' WHERE key = 'site_name'").run();
        otherCommitted = true;
      } catch (error) {
        expect((error as { code?: string }).code).toBe("SQLITE_BUSY");
        otherCommitted = false;
      }
      await trx
        .updateTable("site_settings")
        .set({ value: `${before.value} (kept)` })
        .where("key", "=", "site_name")
        .execute();
    });
    expect(otherCommitted).toBe(false);
    // once it is done, the other connection writes as usual
    other.prepare("UPDATE site_settings SET value = value || ' and other' WHERE key = 'site_name'").run();
    const after = other.prepare("SELECT value FROM site_settings WHERE key = 'site_name'").get() as { value: string };
    expect(after.value).toMatch(/ \(kept\) and other$/);
    other.close();
    await db.destroy();
  });

  it("wait for the other connection's write lock instead of failing (busy_timeout applies to their start)", async () => {
    const { file, db } = await migrated();
    // the other connection in a thread of its own (better-sqlite3 waits for a lock synchronously),
    // holding the write lock for a moment as Litestream's short write transactions do
    const holder = new Worker(
      `const SQLite = require("better-sqlite3");
       const { parentPort, workerData } = require("node:worker_threads");
       const other = new SQLite(workerData);
       other.exec("BEGIN IMMEDIATE");
       other.prepare("UPDATE site_settings SET value = 'Held' WHERE key = 'site_name'").run();
       parentPort.postMessage("held");
       setTimeout(() => { other.exec("COMMIT"); other.close(); parentPort.postMessage("released"); }, 300);`,
      { eval: true, workerData: file },
    );
    await new Promise((resolve) => holder.once("message", resolve));
    const started = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("site_settings").set({ value: "Mine" }).where("key", "=", "site_name").execute();
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    const row = await db.selectFrom("site_settings").select("value").where("key", "=", "site_name").executeTakeFirstOrThrow();
    expect(row.value).toBe("Mine");
    await holder.terminate();
    await db.destroy();
  });
});
