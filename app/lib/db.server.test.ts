/**
 * The process-wide handle opens and closes cleanly on either engine: a stop that comes
 * while the PostgreSQL change feed is still connecting must not hold the pool open (the
 * process would never exit).
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeDb, databaseAnswers, dataVersion, dialect, getDb, getSqlite } from "./db.server";

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

describe("the database handle", () => {
  it("closes at once, even right after opening", async () => {
    for (let round = 0; round < 5; round++) {
      getDb();
      await within(closeDb(), 5000);
    }
  });

  it("answers after a close by opening again", async () => {
    getDb();
    await closeDb();
    await within(databaseAnswers(), 5000);
    expect(typeof dataVersion()).toBe("number");
    await closeDb();
  });

  // the server's front asks at every hit whether another process wrote (stored answers are
  // stale then): a reading stands for a millisecond, and the next one sees the write
  it("sees another connection's commit in dataVersion() from the next millisecond", async () => {
    // (on PostgreSQL it counts the change feed's notifications: tests/integration/multi-instance)
    if (dialect() === "postgres") return;
    const other = new Database(getSqlite().name);
    try {
      const before = dataVersion();
      other.exec("CREATE TABLE data_version_probe (x); DROP TABLE data_version_probe;");
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(dataVersion()).not.toBe(before);
      const seen = dataVersion();
      expect(dataVersion()).toBe(seen);
    } finally {
      other.close();
      await closeDb();
    }
  });
});
