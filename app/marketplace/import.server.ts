/**
 * The marketplaces (docs/decisions/020-marketplace-links.md): one crawl adapter per
 * marketplace behind one interface, answering the normalised item; short links opened
 * on the server; and "find or import": a pasted link or id becomes a product page.
 *
 * Adapters read the marketplaces' public item data (the shapes are described beside the
 * fake marketplace the tests run, tests/fakes/marketplace.ts). A missing item is a 404;
 * a marketplace that does not answer, answers late or in a shape we do not know is a 502
 * 'Fetch failed'. Recent answers are kept for ten minutes.
 */
import { ApiError } from "~/lib/api.server";
import { log } from "~/lib/log.server";
import { readAgentUrl, readMarketplaceUrl, type LinkReading, readMarketplaceInputs } from "./links";
import { canAny, type Access } from "~/lib/permissions";
import { findProductByPlatformItem, findProductsByItemId, type Product } from "~/models/product.server";
import type { User } from "~/models/user.server";
import { keepCrawl, keptCrawl } from "~/models/crawled-item.server";
import { getDb } from "~/lib/db.server";
import { answerNotKept } from "~/lib/request-scope.server";
import { marketplaceUrl, PLATFORM_LABELS, type Platform } from "~/schemas/catalogue-rules";
import { CRAWL_MESSAGES as C, PASTE_MESSAGES as P } from "~/schemas/marketplace-rules";
import { agentPatterns, readPastedLink, agentLinksFor, LINK_DECODERS } from "./agent-links.server";
import { allAgents } from "~/services/agents.server";
import type { SyncExternalBody } from "~/schemas/catalogue";
import { getProduct, syncExternalProduct, type ProductWithSkus } from "~/services/catalogue.server";
import { limitMarketplaceFetches } from "~/services/rate-limit.server";
import { decodeEntities } from "~/lib/text";
import { FetchRefused, fetchOnce, followRedirects, type FetchAnswer } from "./fetch.server";

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

type Adapter = (itemId: string, platform: Platform) => Promise<CrawledProduct>;

// ---------------------------------------------------------------- helpers

const https = (url: unknown): string | null => {
  if (typeof url !== "string" || !url.trim()) return null;
  const value = url.trim().startsWith("//") ? `https:${url.trim()}` : url.trim();
  return /^https?:\/\//i.test(value) ? value.replace(/^http:/i, "https:") : null;
};

const unique = (values: Array<string | null>): string[] => [...new Set(values.filter((value): value is string => Boolean(value)))];

/** "89.00", "89.00-99.00", 8900 (fen) → CNY, the lowest of a range. */
function money(value: unknown, fen = false): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return Math.round((fen ? value / 100 : value) * 100) / 100;
  if (typeof value !== "string") return null;
  const first = Number.parseFloat(value.split(/[-~]/)[0]);
  return Number.isFinite(first) ? Math.round(first * 100) / 100 : null;
}

function parseJson(text: string, platform: Platform, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new FetchFailed(platform, `${what} is not JSON`);
  }
}

async function get(url: string, platform: Platform): Promise<FetchAnswer> {
  try {
    return await fetchOnce(url);
  } catch (error) {
    throw new FetchFailed(platform, (error as Error).message);
  }
}

// ---------------------------------------------------------------- weidian

/**
 * Weidian's item API (thor.weidian.com): getItemSkuInfo for the title, main picture,
 * prices in fen, stock and SKUs; getDetailDesc for the description blocks.
 */
const weidian: Adapter = async (itemId) => {
  const param = encodeURIComponent(JSON.stringify({ itemId }));
  const answer = await get(`https://thor.weidian.com/detail/getItemSkuInfo/1.0?param=${param}`, "weidian");
  if (answer.status === 404) throw new ItemNotFound("weidian", itemId);
  if (answer.status !== 200) throw new FetchFailed("weidian", `HTTP ${answer.status}`);
  const body = parseJson(answer.body, "weidian", "getItemSkuInfo") as {
    status?: { code?: number; message?: string };
    result?: {
      itemId?: string | number;
      itemTitle?: string;
      itemMainPic?: string;
      itemPicList?: string[];
      itemDiscountLowPrice?: number;
      itemStock?: number;
      shopName?: string;
      attrList?: Array<{ attrTitle?: string; attrValues?: Array<{ attrId?: number; attrValue?: string; img?: string }> }>;
      skuInfos?: Array<{
        attrIds?: number[];
        skuInfo?: { id?: number; title?: string; discountPrice?: number; originalPrice?: number; stock?: number; img?: string };
      }>;
    } | null;
  };
  if (typeof body?.status?.code !== "number") throw new FetchFailed("weidian", "getItemSkuInfo has no status");
  if (body.status.code !== 0 || !body.result) throw new ItemNotFound("weidian", itemId);
  const result = body.result;
  if (typeof result.itemTitle !== "string" || !result.itemTitle.trim()) throw new FetchFailed("weidian", "getItemSkuInfo has no title");
  const names = new Map<number, string>();
  for (const group of result.attrList ?? [])
    for (const value of group.attrValues ?? [])
      if (typeof value.attrId === "number" && value.attrValue) names.set(value.attrId, value.attrValue);
  const skus: CrawledSku[] = (result.skuInfos ?? []).flatMap((entry) => {
    const info = entry.skuInfo;
    if (!info) return [];
    const name =
      info.title?.trim() ||
      (entry.attrIds ?? [])
        .map((id) => names.get(id))
        .filter(Boolean)
        .join(" / ");
    const price = money(info.discountPrice ?? info.originalPrice, true);
    return name && price !== null
      ? [{ name, priceCny: price, stock: Math.max(0, Math.floor(info.stock ?? 0)), thumbnailUrl: https(info.img) }]
      : [];
  });

  let description: string[] = [];
  try {
    const descParam = encodeURIComponent(JSON.stringify({ vItemId: itemId }));
    const desc = await get(`https://thor.weidian.com/detail/getDetailDesc/1.0?param=${descParam}`, "weidian");
    const parsed = JSON.parse(desc.body) as { result?: { item_detail?: { desc_content?: Array<{ type?: number; text?: string }> } } };
    description = (parsed.result?.item_detail?.desc_content ?? [])
      .filter((block) => (block.type === 1 || block.type === 10000) && typeof block.text === "string")
      .map((block) => block.text!.trim())
      .filter(Boolean);
  } catch (error) {
    // the description is a nice-to-have: the item is imported without it
    log.debug(`weidian ${itemId}: no description (${(error as Error).message})`);
  }

  return {
    platform: "weidian",
    itemId,
    title: result.itemTitle.trim(),
    priceCny: money(result.itemDiscountLowPrice, true) ?? (skus.length ? Math.min(...skus.map((sku) => sku.priceCny)) : null),
    images: unique([https(result.itemMainPic), ...(result.itemPicList ?? []).map(https), ...skus.map((sku) => sku.thumbnailUrl)]).slice(
      0,
      12,
    ),
    skus,
    description,
    shopName: typeof result.shopName === "string" && result.shopName.trim() ? result.shopName.trim() : null,
    originalUrl: marketplaceUrl("weidian", itemId),
  };
};

// ---------------------------------------------------------------- taobao and tmall

/**
 * Taobao's and Tmall's item API (h5api.m.taobao.com, mtop.taobao.detail.getdetail 6.0):
 * item title and pictures, the shop, the SKU properties (skuBase) and, in apiStack[0]'s
 * JSON, prices and stock per SKU.
 */
const taobao: Adapter = async (itemId, platform) => {
  const data = encodeURIComponent(JSON.stringify({ itemNumId: itemId }));
  const answer = await get(
    `https://h5api.m.taobao.com/h5/mtop.taobao.detail.getdetail/6.0/?jsv=2.6.1&appKey=12574478&api=mtop.taobao.detail.getdetail&v=6.0&type=json&data=${data}`,
    platform,
  );
  if (answer.status !== 200) throw new FetchFailed(platform, `HTTP ${answer.status}`);
  type Value = { vid?: string; name?: string; image?: string };
  const body = parseJson(answer.body, platform, "getdetail") as {
    ret?: string[];
    data?: {
      item?: { itemId?: string; title?: string; images?: string[] };
      seller?: { shopName?: string };
      skuBase?: { props?: Array<{ pid?: string; name?: string; values?: Value[] }>; skus?: Array<{ propPath?: string; skuId?: string }> };
      apiStack?: Array<{ value?: string }>;
      props?: { groupProps?: Array<Record<string, Array<Record<string, string>>>> };
    };
  };
  const ret = Array.isArray(body?.ret) ? body.ret.join(" ") : null;
  if (ret === null) throw new FetchFailed(platform, "getdetail has no ret");
  if (/NOT_?FOUND|宝贝不存在|商品不存在|已下架|ITEM_NOT/i.test(ret)) throw new ItemNotFound(platform, itemId);
  if (!/^SUCCESS/.test(ret)) throw new FetchFailed(platform, ret.slice(0, 200));
  const item = body.data?.item;
  if (!item?.title) throw new FetchFailed(platform, "getdetail has no item");
  let stack: {
    price?: { price?: { priceText?: string } };
    skuCore?: { sku2info?: Record<string, { price?: { priceText?: string }; quantity?: string | number }> };
  } = {};
  try {
    stack = JSON.parse(body.data?.apiStack?.[0]?.value ?? "{}");
  } catch {
    throw new FetchFailed(platform, "getdetail apiStack is not JSON");
  }
  const values = new Map<string, Value>();
  for (const prop of body.data?.skuBase?.props ?? [])
    for (const value of prop.values ?? []) if (prop.pid && value.vid) values.set(`${prop.pid}:${value.vid}`, value);
  const sku2info = stack.skuCore?.sku2info ?? {};
  const skus: CrawledSku[] = (body.data?.skuBase?.skus ?? []).flatMap((sku) => {
    const parts = (sku.propPath ?? "")
      .split(";")
      .map((path) => values.get(path))
      .filter((value): value is Value => Boolean(value));
    const info = sku.skuId ? sku2info[sku.skuId] : undefined;
    const price = money(info?.price?.priceText);
    const name = parts
      .map((part) => part.name)
      .filter(Boolean)
      .join(" / ");
    if (!name || price === null) return [];
    return [
      {
        name,
        priceCny: price,
        stock: Math.max(0, Math.floor(Number(info?.quantity ?? 0)) || 0),
        thumbnailUrl: https(parts.find((part) => part.image)?.image),
      },
    ];
  });
  const description = (body.data?.props?.groupProps ?? []).flatMap((group) =>
    Object.values(group).flatMap((list) =>
      Array.isArray(list) ? list.flatMap((entry) => Object.entries(entry).map(([key, value]) => `${key}: ${value}`)) : [],
    ),
  );
  return {
    platform,
    itemId,
    title: item.title.trim(),
    priceCny:
      money(stack.price?.price?.priceText ?? sku2info["0"]?.price?.priceText) ??
      (skus.length ? Math.min(...skus.map((sku) => sku.priceCny)) : null),
    images: unique((item.images ?? []).map(https)).slice(0, 12),
    skus,
    description: description.length ? [description.join("\n")] : [],
    shopName: body.data?.seller?.shopName?.trim() || null,
    originalUrl: marketplaceUrl(platform, itemId),
  };
};

// ---------------------------------------------------------------- 1688

/**
 * 1688's offer page (detail.1688.com/offer/<id>.html), whose data island
 * `window.__INIT_DATA` holds the title, company, pictures, SKU properties, prices and stock.
 */
const alibaba1688: Adapter = async (itemId) => {
  const answer = await get(`https://detail.1688.com/offer/${itemId}.html`, "1688");
  if (answer.status === 404 || answer.status === 410) throw new ItemNotFound("1688", itemId);
  if (answer.status !== 200) throw new FetchFailed("1688", `HTTP ${answer.status}`);
  const island = /window\.__INIT_DATA\s*=\s*(\{[\s\S]*?\})\s*;?\s*<\/script>/.exec(answer.body);
  if (!island) {
    if (/商品已下架|offer-not-exist|该商品不存在/.test(answer.body)) throw new ItemNotFound("1688", itemId);
    throw new FetchFailed("1688", "the offer page has no data island");
  }
  const data = parseJson(island[1], "1688", "__INIT_DATA") as {
    globalData?: {
      tempModel?: { offerTitle?: string; companyName?: string; offerId?: string | number };
      images?: Array<{ fullPathImageURI?: string }>;
      skuModel?: {
        skuProps?: Array<{ prop?: string; value?: Array<{ name?: string; imageUrl?: string }> }>;
        skuInfoMap?: Record<string, { skuId?: number; price?: string; discountPrice?: string; canBookCount?: number }>;
      };
      orderParamModel?: { orderParam?: { skuParam?: { skuRangePrices?: Array<{ price?: string }> } } };
      offerDetail?: { featureAttributes?: Array<{ name?: string; value?: string | string[] }> };
    };
  };
  const global = data.globalData;
  const title = global?.tempModel?.offerTitle;
  if (!title) throw new FetchFailed("1688", "the data island has no title");
  const ranges = global?.orderParamModel?.orderParam?.skuParam?.skuRangePrices ?? [];
  const basePrice = ranges.map((range) => money(range.price)).filter((price): price is number => price !== null);
  const images = new Map<string, string>();
  for (const prop of global?.skuModel?.skuProps ?? [])
    for (const value of prop.value ?? []) if (value.name && value.imageUrl) images.set(value.name, https(value.imageUrl) ?? "");
  const skus: CrawledSku[] = Object.entries(global?.skuModel?.skuInfoMap ?? {}).flatMap(([key, info]) => {
    const parts = decodeEntities(key)
      .split(">")
      .map((part) => part.trim());
    const price = money(info.discountPrice ?? info.price) ?? (basePrice.length ? Math.min(...basePrice) : null);
    if (price === null) return [];
    return [
      {
        name: parts.join(" / "),
        priceCny: price,
        stock: Math.max(0, Math.floor(info.canBookCount ?? 0)),
        thumbnailUrl: parts.map((part) => images.get(part)).find(Boolean) ?? null,
      },
    ];
  });
  const attributes = (global?.offerDetail?.featureAttributes ?? []).flatMap((attribute) =>
    attribute.name ? [`${attribute.name}: ${Array.isArray(attribute.value) ? attribute.value.join(", ") : (attribute.value ?? "")}`] : [],
  );
  return {
    platform: "1688",
    itemId,
    title: title.trim(),
    priceCny: basePrice.length ? Math.min(...basePrice) : skus.length ? Math.min(...skus.map((sku) => sku.priceCny)) : null,
    images: unique((global?.images ?? []).map((image) => https(image.fullPathImageURI))).slice(0, 12),
    skus,
    description: attributes.length ? [attributes.join("\n")] : [],
    shopName: global?.tempModel?.companyName?.trim() || null,
    originalUrl: marketplaceUrl("1688", itemId),
  };
};

const ADAPTERS: Record<Platform, Adapter> = { weidian, taobao, tmall: taobao, "1688": alibaba1688 };

// ---------------------------------------------------------------- crawling, kept for a while

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
  answerNotKept();
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

// ---------------------------------------------------------------- short links

/** The agents' sites, which short links may pass through on their way to an item. */
async function agentDomains(): Promise<string[]> {
  const domains = new Set<string>();
  for (const agent of await allAgents()) {
    for (const template of [...Object.values(agent.templates), ...agent.readPatterns.map((pattern) => pattern.template)]) {
      try {
        domains.add(new URL(template.replace(/\{(id|url|url2)\}/g, "1")).hostname.replace(/^www\./, ""));
      } catch {
        // a template that is not a URL names no site
      }
    }
  }
  return [...domains];
}

const LINKS_IN_PAGE = /https?:(?:\/\/|\\\/\\\/)[^\s"'<>]+/g;

/**
 * Opens a short link on the server (allowlisted hosts only, each redirect checked, no
 * private addresses) and reads the item it leads to: from a redirect (to a marketplace
 * or an agent), or from the page (m.tb.cn answers a page whose script sends the browser on).
 */
export async function resolveShortLink(url: string): Promise<{ platform: Platform; itemId: string } | null> {
  const patterns = await agentPatterns();
  const itemOf = (candidate: URL) => readMarketplaceUrl(candidate) ?? readAgentUrl(candidate, patterns);
  return followRedirects(
    url,
    (candidate, answer) => {
      const direct = itemOf(candidate);
      if (direct) return direct;
      if (!answer || answer.status !== 200) return null;
      for (const match of answer.body.match(LINKS_IN_PAGE) ?? []) {
        try {
          const inPage = itemOf(new URL(decodeEntities(match.replace(/\\\//g, "/"))));
          if (inPage) return inPage;
        } catch {
          // not a URL after all
        }
      }
      return null;
    },
    { extraDomains: await agentDomains() },
  );
}

// ---------------------------------------------------------------- find or import

export type FindOutcome =
  | { kind: "found"; product: Product }
  | { kind: "importable"; platform: Platform; itemId: string }
  /** a bare 10–12 digit number not in the catalogue: Weidian or 1688 */
  | { kind: "choose"; itemId: string; candidates: Platform[] }
  | { kind: "error"; message: string };

/** Whether a text is a link or an item id (then search shows where it leads, not matches). */
export async function isPastedLink(text: string): Promise<boolean> {
  const kind = (await readPastedLink(text)).kind;
  return kind === "item" || kind === "number" || kind === "short" || kind === "unresolvable";
}

/**
 * What a pasted text leads to: a product already in the catalogue (by platform and item
 * id; for a bare number, by item id on any marketplace), an item to import, or a message.
 */
export async function findPasted(text: string, options: { beforeFetch?: () => Promise<void> } = {}): Promise<FindOutcome> {
  let reading: LinkReading = await readPastedLink(text);
  if (reading.kind === "empty") return { kind: "error", message: P.required };
  if (reading.kind === "unsupported") return { kind: "error", message: P.unsupported };
  if (reading.kind === "unresolvable") return { kind: "error", message: P.unresolvable };
  if (reading.kind === "short") {
    let resolved: { platform: Platform; itemId: string } | null = null;
    // opening a short link is a request to the outside: the caller limits how many
    await options.beforeFetch?.();
    try {
      resolved = await resolveShortLink(reading.url);
    } catch (error) {
      log.info(`short link ${reading.url} not opened: ${(error as Error).message}`);
    }
    if (!resolved) return { kind: "error", message: P.shortLinkFailed };
    reading = { kind: "item", ...resolved, via: "link" };
  }
  const db = getDb();
  if (reading.kind === "number") {
    const existing = (await findProductsByItemId(db, reading.itemId)).filter(
      (product) => product.platform && reading.kind === "number" && reading.candidates.includes(product.platform),
    );
    if (existing[0]) return { kind: "found", product: existing[0] };
    if (reading.candidates.length === 1) return { kind: "importable", platform: reading.candidates[0], itemId: reading.itemId };
    return { kind: "choose", itemId: reading.itemId, candidates: reading.candidates };
  }
  // a Taobao link finds the Tmall product of the same id, and the other way round (one listing)
  const product = await findProductByPlatformItem(db, reading.platform, reading.itemId);
  if (product) return { kind: "found", product };
  return { kind: "importable", platform: reading.platform, itemId: reading.itemId };
}

/** How many links of one pasted text are looked up (a list of finds; a spreadsheet goes through the bulk import). */
export const PASTE_MAX_LINKS = 20;

export type PastedEntry = { link: string; outcome: FindOutcome };

/**
 * Every link of a pasted text with where it leads, in the order pasted (the same item
 * once): the list a shopper gets for a text that holds several links.
 */
export async function findPastedAll(text: string, options: { beforeFetch?: () => Promise<void> } = {}): Promise<PastedEntry[]> {
  const readings = readMarketplaceInputs(text, await agentPatterns(), LINK_DECODERS).slice(0, PASTE_MAX_LINKS);
  const entries: PastedEntry[] = [];
  for (const { link } of readings) entries.push({ link, outcome: await findPasted(link, options) });
  return entries;
}

/** Where an item can be seen and bought without being in the catalogue: its marketplace page and the agents' links. */
export async function itemLinks(platform: Platform, itemId: string, preferredAgentId: number | null = null) {
  return {
    marketplace: marketplaceUrl(platform, itemId),
    agents: (await agentLinksFor({ platform, platformItemId: itemId }, preferredAgentId)).map(({ name, url }) => ({ name, url })),
  };
}

/**
 * The pictures of a crawled item a product may show: marketplace pictures only, by their
 * absolute address (never a path on this site, such as someone's unreviewed upload).
 */
function marketplacePictures(images: string[]): string[] {
  return images.filter((image) => /^https?:\/\//i.test(image)).slice(0, 20);
}

/**
 * Crawls an item and makes it an external product (once, also under parallel imports):
 * everything it shows comes from the marketplace's own answer, its link is the
 * marketplace's address for the item. A crawl that fails stores nothing.
 */
export async function importItem(
  platform: Platform,
  itemId: string,
  actor: { user: User; access: Access },
): Promise<{ product: ProductWithSkus; created: boolean }> {
  const item = await crawlItem(platform, itemId);
  return syncExternalProduct(
    {
      itemId: item.itemId,
      title: item.title,
      price: item.priceCny,
      images: marketplacePictures(item.images),
      source: item.platform,
      skus: item.skus.map((sku) => ({
        sku_name: sku.name.slice(0, 100),
        sku_price: sku.priceCny,
        sku_stock: sku.stock,
        sku_thumbnail_url: sku.thumbnailUrl,
      })),
      description: item.description,
      isExternalProduct: true,
      showInListing: true,
      originalUrl: marketplaceUrl(platform, item.itemId),
      shopName: item.shopName,
    },
    actor,
  );
}

/**
 * POST /api/products/sync-external. Staff who create or edit products give the item's
 * data (the spec's body). Anyone else only names the item (`source`, `itemId`): the server
 * reads it from the marketplace itself (counted against their marketplace limit), so a
 * shopper can neither put their own title, pictures or link on an item nor take an item
 * id for something else. An item already in the catalogue is answered as it is.
 */
export async function syncExternal(
  body: SyncExternalBody,
  actor: { user: User; access: Access },
  clientIp: string,
): Promise<{ product: ProductWithSkus; created: boolean }> {
  if (canAny(actor.access, ["product.create", "product.edit"])) return syncExternalProduct(body, actor);
  const existing = await findProductByPlatformItem(getDb(), body.source, body.itemId);
  if (existing) return { product: await getProduct(existing.id), created: false };
  await limitMarketplaceFetches(actor.user.id, clientIp);
  return importItem(body.source, body.itemId, actor);
}

/** The storefront's words for an import's failure. */
export function importFailureText(error: unknown, platform: Platform): string | null {
  if (error instanceof ItemNotFound) return P.notFound(platform);
  if (error instanceof FetchFailed) return P.fetchFailed(platform);
  if (error instanceof ApiError && error.status === 429) return P.tooMany;
  return null;
}

export { PLATFORM_LABELS, FetchRefused };
