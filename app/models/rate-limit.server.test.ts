import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { addHit, clearBucket, peekHits } from "./rate-limit.server";

describe("rate-limit windows", () => {
  it("count hits inside a window and start again after it", async () => {
    const db = getDb();
    const start = 1_000_000;
    expect((await addHit(db, "t:a", 1000, start)).count).toBe(1);
    expect((await addHit(db, "t:a", 1000, start + 500)).count).toBe(2);
    expect((await peekHits(db, "t:a", start + 900)).count).toBe(2);
    // the window ended: peek reads 0 and the next hit opens a new window
    expect((await peekHits(db, "t:a", start + 1000)).count).toBe(0);
    const next = await addHit(db, "t:a", 1000, start + 1200);
    expect(next).toEqual({ count: 1, windowEndsAt: start + 2200 });
    await clearBucket(db, "t:a");
    expect((await peekHits(db, "t:a", start + 1300)).count).toBe(0);
  });
});
