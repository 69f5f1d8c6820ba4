/** "Tell me when it drops": shoppers' price alerts, and the price changes they wait for (docs/decisions/048). */
import type { DB } from "~/lib/db.server";

export type PriceAlert = { id: number; userId: number; productId: number; priceFen: number; language: string };

/** Asks for an alert at this price (asking again moves it to the price now). */
export async function upsertPriceAlert(db: DB, alert: Omit<PriceAlert, "id">): Promise<void> {
  await db
    .insertInto("price_alerts")
    .values({ user_id: alert.userId, product_id: alert.productId, price_fen: alert.priceFen, language: alert.language })
    .onConflict((conflict) =>
      conflict.columns(["user_id", "product_id"]).doUpdateSet({ price_fen: alert.priceFen, language: alert.language }),
    )
    .execute();
}

export async function deletePriceAlert(db: DB, userId: number, productId: number): Promise<void> {
  await db.deleteFrom("price_alerts").where("user_id", "=", userId).where("product_id", "=", productId).execute();
}

export async function deletePriceAlertById(db: DB, id: number): Promise<PriceAlert | null> {
  const alert = await findPriceAlert(db, id);
  if (alert) await db.deleteFrom("price_alerts").where("id", "=", id).execute();
  return alert;
}

export async function findPriceAlert(db: DB, id: number): Promise<PriceAlert | null> {
  const row = await db.selectFrom("price_alerts").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id, productId: row.product_id, priceFen: row.price_fen, language: row.language } : null;
}

export async function hasPriceAlert(db: DB, userId: number, productId: number): Promise<boolean> {
  return Boolean(
    await db.selectFrom("price_alerts").select("id").where("user_id", "=", userId).where("product_id", "=", productId).executeTakeFirst(),
  );
}

/**
 * The alerts of these products told of a higher price than `priceFen`, with their shopper's
 * address: one read for a run's changes (`priceFen`, the lowest of them).
 */
export async function alertsAbove(
  db: DB,
  productIds: readonly number[],
  priceFen: number,
): Promise<Array<PriceAlert & { email: string; username: string }>> {
  const rows = await db
    .selectFrom("price_alerts as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select(["a.id", "a.user_id", "a.product_id", "a.price_fen", "a.language", "u.email", "u.username"])
    .where("a.product_id", "in", productIds)
    .where("a.price_fen", ">", priceFen)
    // mail goes only to an address its owner proved
    .where("u.email_verified", "=", 1)
    .orderBy("a.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    productId: row.product_id,
    priceFen: row.price_fen,
    language: row.language,
    email: row.email,
    username: row.username,
  }));
}

/** The alert was mailed of this price. */
export async function markAlertTold(db: DB, id: number, priceFen: number, at: string): Promise<void> {
  await db.updateTable("price_alerts").set({ price_fen: priceFen, notified_at: at }).where("id", "=", id).execute();
}

/** Price changes recorded after a history id, oldest first. */
export async function priceChangesAfter(
  db: DB,
  afterId: number,
  limit: number,
): Promise<Array<{ id: number; productId: number; priceFen: number }>> {
  const rows = await db
    .selectFrom("price_history")
    .select(["id", "product_id", "price_fen"])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, productId: row.product_id, priceFen: row.price_fen }));
}

export async function lastPriceChangeId(db: DB): Promise<number> {
  const row = await db
    .selectFrom("price_history")
    .select(({ fn }) => fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
