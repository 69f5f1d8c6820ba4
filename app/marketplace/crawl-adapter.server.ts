/**
 * What every crawl adapter answers (docs/decisions/020-marketplace-links.md): the
 * normalised item, the two ways a crawl fails, and the helpers the adapters share. One
 * adapter per marketplace reads its public item data (crawl-weidian, crawl-taobao,
 * crawl-1688; the shapes are described beside the fake marketplace the tests run,
 * tests/fakes/marketplace.ts). A missing item is a 404; a marketplace that does not
 * answer, answers late or in a shape we do not know is a 502 'Fetch failed'.
 */
import { ApiError } from "~/lib/api.server";
import type { Platform } from "~/schemas/catalogue-rules";
import { CRAWL_MESSAGES as C } from "~/schemas/marketplace-rules";
import { fetchOnce, type FetchAnswer } from "./fetch.server";

export type CrawledSku = { name: string; priceCny: number; stock: number; thumbnailUrl: string | null };

/** An item as every adapter answers it. */
export type CrawledProduct = {
  platform: Platform;
  itemId: string;
  title: string;
  /** CNY; the lowest price when the SKUs differ */
  priceCny: number | null;
  images: string[];
  skus: CrawledSku[];
  /** text blocks of the description */
  description: string[];
  shopName: string | null;
  originalUrl: string;
};

export class ItemNotFound extends ApiError {
  constructor(platform: Platform, itemId: string) {
    super(404, C.notFound(platform, itemId), "ITEM_NOT_FOUND");
  }
}

export class FetchFailed extends ApiError {
  constructor(
    platform: Platform,
    public reason: string,
  ) {
    super(502, C.fetchFailed(platform), "FETCH_FAILED");
  }
}

export type Adapter = (itemId: string, platform: Platform) => Promise<CrawledProduct>;

// ---------------------------------------------------------------- helpers

export const https = (url: unknown): string | null => {
  if (typeof url !== "string" || !url.trim()) return null;
  const value = url.trim().startsWith("//") ? `https:${url.trim()}` : url.trim();
  return /^https?:\/\//i.test(value) ? value.replace(/^http:/i, "https:") : null;
};

export const unique = (values: Array<string | null>): string[] => [...new Set(values.filter((value): value is string => Boolean(value)))];

/** "89.00", "89.00-99.00", 8900 (fen) → CNY, the lowest of a range. */
export function money(value: unknown, fen = false): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return Math.round((fen ? value / 100 : value) * 100) / 100;
  if (typeof value !== "string") return null;
  const first = Number.parseFloat(value.split(/[-~]/)[0]);
  return Number.isFinite(first) ? Math.round(first * 100) / 100 : null;
}

export function parseJson(text: string, platform: Platform, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new FetchFailed(platform, `${what} is not JSON`);
  }
}

export async function get(url: string, platform: Platform): Promise<FetchAnswer> {
  try {
    return await fetchOnce(url);
  } catch (error) {
    throw new FetchFailed(platform, (error as Error).message);
  }
}
