/**
 * A product's prices over time (docs/decisions/048-shoppers-comparisons.md): a row each
 * time its price changes, by whatever path (an edit, an import, the listing watch): they
 * all go through updateProduct(), which records the change. The first change also records
 * the price before it, at the product's creation (when it was listed).
 */
import type { DB } from "~/lib/db.server";

export type PricePoint = { priceCny: number; recordedAt: string };

/** At most this many points are answered (the oldest are left out): a chart of years of daily changes stays small. */
export const PRICE_HISTORY_MAX_POINTS = 200;

/** Records a price change (CNY × 100); the first one also the price before it. Call inside the write's transaction. */
export async function recordPriceChange(
  db: DB,
  productId: number,
  change: { previousFen: number | null; previousAt: string; newFen: number; at: string },
): Promise<void> {
  const any = await db.selectFrom("price_history").select("id").where("product_id", "=", productId).limit(1).executeTakeFirst();
  if (!any && change.previousFen !== null) {
    await db
      .insertInto("price_history")
      .values({ product_id: productId, price_fen: change.previousFen, recorded_at: change.previousAt })
      .execute();
  }
  await db.insertInto("price_history").values({ product_id: productId, price_fen: change.newFen, recorded_at: change.at }).execute();
}

/** The latest `limit` points, newest first. */
export async function latestPrices(db: DB, productId: number, limit = 20): Promise<PricePoint[]> {
  const rows = await db
    .selectFrom("price_history")
    .select(["price_fen", "recorded_at"])
    .where("product_id", "=", productId)
    .orderBy("recorded_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ priceCny: row.price_fen / 100, recordedAt: row.recorded_at }));
}

/** The history, oldest first (the last PRICE_HISTORY_MAX_POINTS points). */
export async function priceHistoryOldestFirst(db: DB, productId: number): Promise<PricePoint[]> {
  return (await latestPrices(db, productId, PRICE_HISTORY_MAX_POINTS)).reverse();
}
