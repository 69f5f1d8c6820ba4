/**
 * Trends (issue 39; docs/decisions/048-shoppers-comparisons.md): what shoppers did this
 * week. The products most QC-photographed (approved photos sent in the last 7 days), most
 * collected (collections made in the last 7 days), and new (listed in the last 7 days),
 * each as the storefront may show them (hidden and, when switched off, external products
 * left out). For the home page and GET /api/products/trends.
 *
 * Two grouped reads of an index range and one of the newest products: cheap (the bench
 * measures them), and kept a minute per process, anew after a catalogue write.
 */
import { contentVersion } from "~/lib/content-version.server";
import { getDb } from "~/lib/db.server";
import type { Access } from "~/lib/permissions";
import { countListedSince, rowsInOrder, toProduct, topProducts, type Product } from "~/models/product.server";
import { collectedSince, qcPhotographedSince, type TrendRow } from "~/models/trends.server";
import { storefrontFilter } from "./common.server";

export const TREND_DAYS = 7;
/** Products a trend lists. */
export const TREND_SIZE = 8;
const KEPT_MS = 60_000;
/** read beyond the list: some may be hidden from the storefront */
const READ = TREND_SIZE * 3;

export type Trend = Array<{ product: Product; count: number }>;
export type Trends = {
  since: string;
  qcPhotographed: Trend;
  collected: Trend;
  /** the newest of the week's products (TREND_SIZE at most) */
  newThisWeek: Product[];
  /** how many products the week listed (at most NEW_COUNT_CAP) */
  newCount: number;
};

/** Beyond this many, the week's new products are counted as "1000+". */
export const NEW_COUNT_CAP = 1000;

type Kept = { key: string; at: number; value: Promise<Trends> };
const kept = new Map<string, Kept>();

async function compute(filter: Awaited<ReturnType<typeof storefrontFilter>>): Promise<Trends> {
  const db = getDb();
  const since = new Date(Date.now() - TREND_DAYS * 24 * 60 * 60_000).toISOString();
  const [qc, collected, newest, newCount] = await Promise.all([
    qcPhotographedSince(db, since, READ),
    collectedSince(db, since, READ),
    topProducts(db, { ...filter, by: "newest", limit: TREND_SIZE }),
    countListedSince(db, since, filter, NEW_COUNT_CAP),
  ]);
  const visible = (product: Product) => (!filter.listedOnly || product.showInListing) && (!filter.hideExternal || !product.isExternal);
  const ranked = async (rows: TrendRow[]): Promise<Trend> => {
    const products = new Map(
      (
        await rowsInOrder(
          db,
          rows.map((row) => row.productId),
        )
      ).map((row) => [row.id, toProduct(row)]),
    );
    return rows
      .flatMap((row) => {
        const product = products.get(row.productId);
        return product && visible(product) ? [{ product, count: row.count }] : [];
      })
      .slice(0, TREND_SIZE);
  };
  return {
    since,
    qcPhotographed: await ranked(qc),
    collected: await ranked(collected),
    newThisWeek: newest.filter((product) => product.createdAt >= since),
    newCount,
  };
}

/** This week's trends as the caller may see them. */
export async function weeklyTrends(access?: Access | null): Promise<Trends> {
  const filter = await storefrontFilter(access);
  const which = JSON.stringify(filter);
  // anew after a catalogue write here, and a minute at most (another instance's writes, collections)
  const key = String(contentVersion());
  const known = kept.get(which);
  if (known && known.key === key && Date.now() - known.at < KEPT_MS) return known.value;
  const value = compute(filter);
  kept.set(which, { key, at: Date.now(), value });
  value.catch(() => kept.delete(which));
  return value;
}
