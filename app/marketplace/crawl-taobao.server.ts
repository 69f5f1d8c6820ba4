/** Taobao's and Tmall's crawl adapter, one for both (crawl-adapter.server.ts: what every adapter answers). */
import { marketplaceUrl } from "~/schemas/catalogue-rules";
import { FetchFailed, get, https, ItemNotFound, money, parseJson, unique, type Adapter, type CrawledSku } from "./crawl-adapter.server";

/**
 * Taobao's and Tmall's item API (h5api.m.taobao.com, mtop.taobao.detail.getdetail 6.0):
 * item title and pictures, the shop, the SKU properties (skuBase) and, in apiStack[0]'s
 * JSON, prices and stock per SKU.
 */
export const taobao: Adapter = async (itemId, platform) => {
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
