/** Weidian's crawl adapter (crawl-adapter.server.ts: what every adapter answers). */
import { log } from "~/lib/log.server";
import { marketplaceUrl } from "~/schemas/catalogue-rules";
import { FetchFailed, get, https, ItemNotFound, money, parseJson, unique, type Adapter, type CrawledSku } from "./crawl-adapter.server";

/**
 * Weidian's item API (thor.weidian.com): getItemSkuInfo for the title, main picture,
 * prices in fen, stock and SKUs; getDetailDesc for the description blocks.
 */
export const weidian: Adapter = async (itemId) => {
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
