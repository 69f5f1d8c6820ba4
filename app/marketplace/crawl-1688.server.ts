/** 1688's crawl adapter (crawl-adapter.server.ts: what every adapter answers). */
import { decodeEntities } from "~/lib/text";
import { marketplaceUrl } from "~/schemas/catalogue-rules";
import { FetchFailed, get, https, ItemNotFound, money, parseJson, unique, type Adapter, type CrawledSku } from "./crawl-adapter.server";

/**
 * 1688's offer page (detail.1688.com/offer/<id>.html), whose data island
 * `window.__INIT_DATA` holds the title, company, pictures, SKU properties, prices and stock.
 */
export const alibaba1688: Adapter = async (itemId) => {
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
