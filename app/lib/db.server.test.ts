/**
 * The process-wide handle opens and closes cleanly on either engine: a stop that comes
 * while the PostgreSQL change feed is still connecting must not hold the pool open (the
 * process would never exit).
 */
import { describe, expect, it } from "vitest";
import { closeDb, databaseAnswers, dataVersion, getDb } from "./db.server";

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
});
