/** The listing watch of external products: checks, prices seen, reports (queries only). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import type { Platform } from "../../db/schema";

export type ListingState = {
  productId: number;
  status: "ok" | "unavailable";
  checkedAt: string | null;
  misses: number;
  unavailableSince: string | null;
  lastError: string | null;
};

export type ListingToCheck = { productId: number; platform: Platform; itemId: string; priceCny: number | null; createdAt: string };

type WatchRow = {
  product_id: number;
  status: "ok" | "unavailable";
  checked_at: string | null;
  misses: number;
  unavailable_since: string | null;
  last_error: string | null;
};

const toState = (row: WatchRow): ListingState => ({
  productId: row.product_id,
  status: row.status,
  checkedAt: row.checked_at,
  misses: row.misses,
  unavailableSince: row.unavailable_since,
  lastError: row.last_error,
});

/**
 * Takes the external listing checked longest ago (never checked first) whose last check is
 * before `dueBefore`, and marks it checked now, in one transaction: the mark comes before
 * the check, so a check cut short by a crash is not repeated until it is due again.
 */
export async function claimNextListing(db: DB, now: string, dueBefore: string): Promise<ListingToCheck | null> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: number; platform: Platform; platform_item_id: string; price_fen: number | null; created_at: string }>`
      SELECT p.id, p.platform, p.platform_item_id, p.price_fen, p.created_at
      FROM products p LEFT JOIN listing_watch w ON w.product_id = p.id
      WHERE p.is_external = 1 AND p.platform IS NOT NULL AND p.platform_item_id IS NOT NULL
        AND (w.checked_at IS NULL OR w.checked_at < ${dueBefore})
      ORDER BY w.checked_at IS NOT NULL, w.checked_at, p.id
      LIMIT 1`.execute(trx);
    const row = rows[0];
    if (!row) return null;
    await trx
      .insertInto("listing_watch")
      .values({ product_id: row.id, checked_at: now })
      .onConflict((oc) => oc.column("product_id").doUpdateSet({ checked_at: now }))
      .execute();
    return {
      productId: row.id,
      platform: row.platform,
      itemId: row.platform_item_id,
      priceCny: row.price_fen === null ? null : row.price_fen / 100,
      createdAt: row.created_at,
    };
  });
}

/** The item answered: no misses, available again. */
export async function recordFound(db: DB, productId: number): Promise<{ wasUnavailable: boolean }> {
  const before = await db.selectFrom("listing_watch").select("status").where("product_id", "=", productId).executeTakeFirst();
  await db
    .updateTable("listing_watch")
    .set({ status: "ok", misses: 0, unavailable_since: null, last_error: null })
    .where("product_id", "=", productId)
    .execute();
  return { wasUnavailable: before?.status === "unavailable" };
}

/** The marketplace said the item does not exist: one more miss; unavailable from `threshold` misses. */
export async function recordMissing(db: DB, productId: number, now: string, threshold: number): Promise<ListingState> {
  const row = await db
    .updateTable("listing_watch")
    .set((eb) => ({
      misses: eb("misses", "+", 1),
      last_error: null,
      status: sql<"ok" | "unavailable">`CASE WHEN misses + 1 >= ${threshold} THEN 'unavailable' ELSE status END`,
      unavailable_since: sql<
        string | null
      >`CASE WHEN misses + 1 >= ${threshold} AND unavailable_since IS NULL THEN ${now} ELSE unavailable_since END`,
    }))
    .where("product_id", "=", productId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toState(row);
}

/** The marketplace could not be asked (it failed or answered oddly): not counted as a miss. */
export async function recordCheckError(db: DB, productId: number, message: string): Promise<void> {
  await db
    .updateTable("listing_watch")
    .set({ last_error: message.slice(0, 500) })
    .where("product_id", "=", productId)
    .execute();
}

export async function listingState(db: DB, productId: number): Promise<ListingState | null> {
  const row = await db.selectFrom("listing_watch").selectAll().where("product_id", "=", productId).executeTakeFirst();
  return row ? toState(row) : null;
}

export async function listingStates(db: DB, productIds: number[]): Promise<Map<number, ListingState & { reports: number }>> {
  const states = new Map<number, ListingState & { reports: number }>();
  if (productIds.length === 0) return states;
  const rows = await db.selectFrom("listing_watch").selectAll().where("product_id", "in", productIds).execute();
  for (const row of rows) states.set(row.product_id, { ...toState(row), reports: 0 });
  const reports = await db
    .selectFrom("listing_reports")
    .where("product_id", "in", productIds)
    .groupBy("product_id")
    .select(["product_id", (eb) => eb.fn.countAll<number>().as("n")])
    .execute();
  for (const report of reports) {
    const state = states.get(report.product_id) ?? {
      productId: report.product_id,
      status: "ok" as const,
      checkedAt: null,
      misses: 0,
      unavailableSince: null,
      lastError: null,
      reports: 0,
    };
    state.reports = Number(report.n);
    states.set(report.product_id, state);
  }
  return states;
}

export async function insertListingReport(db: DB, input: { productId: number; userId: number | null; note: string | null }): Promise<void> {
  await db.insertInto("listing_reports").values({ product_id: input.productId, user_id: input.userId, note: input.note }).execute();
}

export async function listingReports(
  db: DB,
  productId: number,
): Promise<Array<{ note: string | null; createdAt: string; username: string | null }>> {
  const rows = await db
    .selectFrom("listing_reports as r")
    .leftJoin("users as u", "u.id", "r.user_id")
    .select(["r.note", "r.created_at", "u.username"])
    .where("r.product_id", "=", productId)
    .orderBy("r.id", "desc")
    .limit(50)
    .execute();
  return rows.map((row) => ({ note: row.note, createdAt: row.created_at, username: row.username }));
}
