/** Fixed-window counters kept in SQLite, so limits hold across restarts. */
import type { DB } from "~/lib/db.server";

export type Window = { count: number; windowEndsAt: number };

/** Adds one hit to a bucket and returns the window after the hit. */
export async function addHit(db: DB, bucket: string, windowMs: number, now = Date.now()): Promise<Window> {
  const row = await db
    .insertInto("rate_limits")
    .values({ bucket, count: 1, window_ends_at: now + windowMs })
    .onConflict((oc) =>
      oc.column("bucket").doUpdateSet((eb) => ({
        count: eb
          .case()
          .when("rate_limits.window_ends_at", "<=", now)
          .then(1)
          .else(eb("rate_limits.count", "+", 1))
          .end(),
        window_ends_at: eb
          .case()
          .when("rate_limits.window_ends_at", "<=", now)
          .then(now + windowMs)
          .else(eb.ref("rate_limits.window_ends_at"))
          .end(),
      })),
    )
    .returning(["count", "window_ends_at"])
    .executeTakeFirstOrThrow();
  return { count: row.count, windowEndsAt: row.window_ends_at };
}

/** Hits in the current window (0 when the window is over). */
export async function peekHits(db: DB, bucket: string, now = Date.now()): Promise<Window> {
  const row = await db.selectFrom("rate_limits").select(["count", "window_ends_at"]).where("bucket", "=", bucket).executeTakeFirst();
  if (!row || row.window_ends_at <= now) return { count: 0, windowEndsAt: now };
  return { count: row.count, windowEndsAt: row.window_ends_at };
}

export async function clearBucket(db: DB, bucket: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("bucket", "=", bucket).execute();
}

/** Takes one hit back (a try counted before its outcome was known, that turned out not to count). */
export async function takeBackHit(db: DB, bucket: string): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("bucket", "=", bucket)
    .where("count", ">", 0)
    .execute();
}
