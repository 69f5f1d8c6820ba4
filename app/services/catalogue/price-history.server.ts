/**
 * A product's price history for the page and GET /api/products/:id/price-history
 * (docs/decisions/048-shoppers-comparisons.md): every change recorded by the product's
 * write (app/models/price-history.server.ts), oldest first. A product whose price never
 * changed has one point: its price since it was listed.
 */
import { getDb } from "~/lib/db.server";
import { priceHistoryOldestFirst } from "~/models/price-history.server";
import type { Product } from "./common.server";

/** One point of the history: when (ISO) and the price from then on (CNY). */
export type PriceHistoryPoint = { at: string; price: number };

export async function priceHistoryOfProduct(product: Pick<Product, "id" | "priceCny" | "createdAt">): Promise<PriceHistoryPoint[]> {
  const points = (await priceHistoryOldestFirst(getDb(), product.id)).map((point) => ({ at: point.recordedAt, price: point.priceCny }));
  if (points.length === 0 && product.priceCny !== null) return [{ at: product.createdAt, price: product.priceCny }];
  return points;
}
