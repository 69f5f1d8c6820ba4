/**
 * Crawling an item (docs/decisions/020-marketplace-links.md): the adapter of its
 * marketplace (crawl-weidian, crawl-taobao for Taobao and Tmall, crawl-1688), the answer
 * kept for ten minutes in this instance's memory and in the database (crawled_items) for
 * the other instances, parallel calls for one item sharing one fetch.
 */
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { answerNotStored } from "~/lib/request-scope.server";
import { keepCrawl, keptCrawl } from "~/models/crawled-item.server";
import type { Platform } from "~/schemas/catalogue-rules";
import { alibaba1688 } from "./crawl-1688.server";
import { FetchFailed, type Adapter, type CrawledProduct } from "./crawl-adapter.server";
import { taobao } from "./crawl-taobao.server";
import { weidian } from "./crawl-weidian.server";

const ADAPTERS: Record<Platform, Adapter> = { weidian, taobao, tmall: taobao, "1688": alibaba1688 };

const KEEP_MS = 10 * 60_000;
const KEEP_MAX = 200;
const kept = new Map<string, { at: number; value: CrawledProduct }>();
const inFlight = new Map<string, Promise<CrawledProduct>>();

/** Keeps an answer in this instance's memory (the oldest go past KEEP_MAX). */
function remember(key: string, at: number, value: CrawledProduct) {
  kept.delete(key);
  kept.set(key, { at, value });
  if (kept.size > KEEP_MAX) kept.delete(kept.keys().next().value!);
}

/**
 * The normalised item of a marketplace. Answers kept for ten minutes are reused unless
 * `fresh` (the listing watch): this instance's own, else the one any instance stored in
 * the database (crawled_items), so an item reaches the marketplace once whichever
 * instance is asked; parallel calls for one item in one instance share one fetch.
 */
export async function crawlItem(platform: Platform, itemId: string, options: { fresh?: boolean } = {}): Promise<CrawledProduct> {
  // an answer made with what a marketplace said is not kept for others, even from the ten
  // minutes' copy (docs/decisions/035-kept-only-when-the-answer-says-so.md)
  answerNotStored();
  const key = `${platform}:${itemId}`;
  const hit = kept.get(key);
  if (!options.fresh && hit && Date.now() - hit.at < KEEP_MS) return hit.value;
  const running = inFlight.get(key);
  if (running) return running;
  const task = (async () => {
    if (!options.fresh) {
      // a database that fails here only costs a fetch
      const shared = await keptCrawl(getDb(), key, Date.now() - KEEP_MS).catch(() => null);
      if (shared) {
        const value = JSON.parse(shared.value) as CrawledProduct;
        remember(key, shared.fetchedAt, value);
        return value;
      }
    }
    const value = await ADAPTERS[platform](itemId, platform);
    const at = Date.now();
    remember(key, at, value);
    // stored before the answer goes: the next instance asked finds it
    await keepCrawl(getDb(), key, JSON.stringify(value), at, at - KEEP_MS).catch((error: unknown) =>
      log.warn(`marketplace: ${platform} ${itemId}: not kept for the other instances (${String(error)})`),
    );
    return value;
  })()
    .catch((error: unknown) => {
      if (error instanceof FetchFailed) log.warn(`marketplace: ${platform} ${itemId}: fetch failed (${error.reason})`);
      throw error;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, task);
  return task;
}

export function crawledJson(item: CrawledProduct) {
  return {
    itemId: item.itemId,
    platform: item.platform,
    source: item.platform,
    title: item.title,
    price: item.priceCny,
    images: item.images,
    skus: item.skus.map((sku) => ({
      sku_name: sku.name,
      sku_price: sku.priceCny,
      sku_stock: sku.stock,
      sku_thumbnail_url: sku.thumbnailUrl,
    })),
    description: item.description,
    descriptionItems: item.description,
    shopName: item.shopName,
    originalUrl: item.originalUrl,
  };
}
