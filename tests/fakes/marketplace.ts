/**
 * A fake of the marketplaces and short-link services on 127.0.0.1, for MARKETPLACE_BASE_URL:
 * the app asks for https://<host><path> as <base>/<host><path>.
 *
 * Where each shape comes from (public code that reads the real services; the shapes are
 * trimmed to the fields the adapters read):
 * - Weidian: thor.weidian.com/detail/getItemSkuInfo/1.0?param={"itemId"} →
 *   {status: {code, message}, result: {itemId, itemTitle, itemMainPic, itemDiscountLowPrice
 *   (fen), itemStock, attrList: [{attrTitle, attrValues: [{attrId, attrValue, img}]}],
 *   skuInfos: [{attrIds, skuInfo: {id, title, discountPrice, originalPrice, stock, img}}]}};
 *   a gone item answers a non-zero status code. getDetailDesc/1.0?param={"vItemId"} →
 *   {result: {item_detail: {desc_content: [{type: 1 (text) | 2 (image), text, url}]}}}.
 *   (Seen in public Weidian scrapers and user scripts on GitHub.) `shopName` is optional.
 * - Taobao / Tmall: h5api.m.taobao.com/h5/mtop.taobao.detail.getdetail/6.0/?data={"itemNumId"}
 *   → {ret: ["SUCCESS::调用成功"], data: {item: {itemId, title, images}, seller: {shopName},
 *   skuBase: {props: [{pid, name, values: [{vid, name, image}]}], skus: [{propPath, skuId}]},
 *   apiStack: [{value: JSON of {price: {price: {priceText}}, skuCore: {sku2info: {skuId:
 *   {price: {priceText}, quantity}}}}}], props: {groupProps}}}; a gone item answers
 *   ret ["ERRCODE_QUERY_DETAIL_FAIL::宝贝不存在"]. (The mtop detail answer as public parsers
 *   and saved fixtures in GitHub repositories show it.)
 * - 1688: detail.1688.com/offer/<id>.html, an HTML page whose script sets
 *   window.__INIT_DATA = {globalData: {tempModel: {offerTitle, companyName}, images:
 *   [{fullPathImageURI}], skuModel: {skuProps: [{prop, value: [{name, imageUrl}]}],
 *   skuInfoMap: {"红色&gt;M": {skuId, price, canBookCount}}}, orderParamModel: {orderParam:
 *   {skuParam: {skuRangePrices: [{beginAmount, price}]}}}}}; a gone offer is a 404.
 * - Short links: m.tb.cn answers a page with a script redirect (`var url = '...'`);
 *   the others answer 302 with a Location (docs/marketplace-links.md).
 *
 * Each item can also answer malformed data, fail (500) or hang (a timeout). Requests are
 * counted per item. Tests drive it directly; the Playwright run drives the same server
 * through /__control.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeSku = { name: string; price: number; stock: number; image?: string };
export type FakeItem = {
  title: string;
  price: number;
  images?: string[];
  skus?: FakeSku[];
  description?: string[];
  shopName?: string;
  /** answer this many ms late */
  delayMs?: number;
};
export type ItemState = FakeItem | "missing" | "malformed" | "error" | { hang: true };
export type FakePlatform = "weidian" | "taobao" | "tmall" | "1688";

export type FakeMarketplace = {
  url: string;
  port: number;
  set: (platform: FakePlatform, itemId: string, state: ItemState) => void;
  /** a short link: /<host>/<code> answers a redirect to `location`, or (m.tb.cn) a page with a script redirect; `delayMs` late */
  shortLink: (host: string, code: string, location: string, options?: { delayMs?: number }) => void;
  /** the most requests it had open at once since the last reset */
  peakOpen: () => number;
  resetPeak: () => void;
  /** requests seen for an item (all its endpoints) */
  hits: (platform: FakePlatform, itemId: string) => number;
  /** a picture on a marketplace's image host (https://img.example-cdn.test/x.jpg): its bytes, served as image/jpeg */
  picture: (url: string, bytes: Buffer) => void;
  requests: string[];
  close: () => Promise<void>;
};

const pic = (name: string) => `https://img.example-cdn.test/${name}.jpg`;

function weidianAnswer(itemId: string, item: FakeItem) {
  const attrValues = (item.skus ?? []).map((sku, index) => ({
    attrId: 1000 + index,
    attrValue: sku.name,
    img: sku.image ?? "",
    isShowHotTag: false,
  }));
  return {
    status: { code: 0, message: "OK", description: "" },
    result: {
      itemId,
      itemTitle: item.title,
      itemMainPic: item.images ? (item.images[0] ?? "") : pic(`wd-${itemId}`),
      itemPicList: item.images ?? [],
      itemDiscountLowPrice: Math.round(item.price * 100),
      itemStock: (item.skus ?? []).reduce((sum, sku) => sum + sku.stock, 0),
      ...(item.shopName ? { shopName: item.shopName } : {}),
      attrList: attrValues.length ? [{ attrTitle: "规格", attrValues }] : [],
      skuInfos: (item.skus ?? []).map((sku, index) => ({
        attrIds: [1000 + index],
        skuInfo: {
          id: 5000 + index,
          title: sku.name,
          discountPrice: Math.round(sku.price * 100),
          originalPrice: Math.round(sku.price * 100),
          stock: sku.stock,
          img: sku.image ?? "",
        },
      })),
    },
  };
}

function taobaoAnswer(itemId: string, item: FakeItem) {
  const skus = item.skus ?? [];
  const sku2info: Record<string, { price: { priceText: string }; quantity: string }> = {
    "0": { price: { priceText: item.price.toFixed(2) }, quantity: String(skus.reduce((sum, sku) => sum + sku.stock, 0)) },
  };
  skus.forEach(
    (sku, index) => (sku2info[String(4000 + index)] = { price: { priceText: sku.price.toFixed(2) }, quantity: String(sku.stock) }),
  );
  return {
    api: "mtop.taobao.detail.getdetail",
    v: "6.0",
    ret: ["SUCCESS::调用成功"],
    data: {
      item: { itemId, title: item.title, images: (item.images ?? [pic(`tb-${itemId}`)]).map((url) => url.replace(/^https:/, "")) },
      seller: { shopName: item.shopName ?? "" },
      skuBase: {
        props: skus.length
          ? [
              {
                pid: "1627207",
                name: "颜色分类",
                values: skus.map((sku, index) => ({ vid: String(300 + index), name: sku.name, image: sku.image ?? "" })),
              },
            ]
          : [],
        skus: skus.map((_, index) => ({ propPath: `1627207:${300 + index}`, skuId: String(4000 + index) })),
      },
      apiStack: [{ name: "esi", value: JSON.stringify({ price: { price: { priceText: item.price.toFixed(2) } }, skuCore: { sku2info } }) }],
      props: item.description?.length
        ? {
            groupProps: [
              { 基本信息: item.description.map((line) => ({ [line.split(":")[0]]: line.split(":").slice(1).join(":").trim() })) },
            ],
          }
        : {},
    },
  };
}

function offerPage(itemId: string, item: FakeItem) {
  const skuInfoMap: Record<string, { skuId: number; price: string; canBookCount: number }> = {};
  (item.skus ?? []).forEach(
    (sku, index) =>
      (skuInfoMap[sku.name.replace(/ \/ /g, "&gt;")] = { skuId: 7000 + index, price: sku.price.toFixed(2), canBookCount: sku.stock }),
  );
  const data = {
    globalData: {
      tempModel: { offerId: itemId, offerTitle: item.title, companyName: item.shopName ?? "" },
      images: (item.images ?? [pic(`1688-${itemId}`)]).map((url) => ({ fullPathImageURI: url })),
      skuModel: {
        skuProps: (item.skus ?? []).length
          ? [{ prop: "颜色", value: (item.skus ?? []).map((sku) => ({ name: sku.name.split(" / ")[0], imageUrl: sku.image ?? "" })) }]
          : [],
        skuInfoMap,
      },
      orderParamModel: { orderParam: { skuParam: { skuRangePrices: [{ beginAmount: 2, price: item.price.toFixed(2) }] } } },
      offerDetail: {
        featureAttributes: (item.description ?? []).map((line) => ({
          name: line.split(":")[0],
          value: line.split(":").slice(1).join(":").trim(),
        })),
      },
    },
  };
  return `<!doctype html><html><head><meta charset="utf-8"><title>${item.title}</title></head><body><div id="root"></div><script>window.__INIT_DATA=${JSON.stringify(data)}</script></body></html>`;
}

export async function startFakeMarketplace(port = 0): Promise<FakeMarketplace> {
  const items = new Map<string, ItemState>();
  /** /<host><path> → bytes */
  const pictures = new Map<string, Buffer>();
  const pictureKey = (raw: string) => {
    const url = new URL(raw);
    return `/${url.host}${url.pathname}`;
  };
  const shortLinks = new Map<string, string>();
  const shortDelays = new Map<string, number>();
  let open = 0;
  let peak = 0;
  const counts = new Map<string, number>();
  const requests: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const count = (platform: string, itemId: string) => counts.set(`${platform}:${itemId}`, (counts.get(`${platform}:${itemId}`) ?? 0) + 1);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push(url.pathname + url.search);
    open += 1;
    peak = Math.max(peak, open);
    res.on("close", () => (open -= 1));
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };

    // the Playwright run's control surface
    if (url.pathname.startsWith("/__control/")) {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        const body = raw ? JSON.parse(raw) : {};
        if (url.pathname === "/__control/item") items.set(`${body.platform}:${body.itemId}`, body.state);
        else if (url.pathname === "/__control/picture") pictures.set(pictureKey(body.url), Buffer.from(body.base64, "base64"));
        else if (url.pathname === "/__control/short") shortLinks.set(`${body.host}/${body.code}`, body.location);
        else if (url.pathname === "/__control/hits")
          return json(200, { hits: counts.get(`${url.searchParams.get("platform")}:${url.searchParams.get("itemId")}`) ?? 0 });
        json(200, { ok: true });
      });
      return;
    }

    const answer = (platform: FakePlatform, itemId: string, ok: (item: FakeItem) => void, missing: () => void) => {
      count(platform, itemId);
      const state = items.get(`${platform}:${itemId}`) ?? "missing";
      if (state === "missing") return missing();
      if (state === "malformed") return json(200, "<html>captcha, please slide to verify</html>");
      if (state === "error") return json(500, { error: "internal" });
      if ("hang" in state) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if (state.delayMs) setTimeout(() => ok(state), state.delayMs);
      else ok(state);
    };

    const picture = pictures.get(url.pathname);
    if (picture) {
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": picture.length });
      res.end(picture);
      return;
    }

    // Weidian
    const weidianPath = /^\/thor\.weidian\.com\/detail\/(getItemSkuInfo|getDetailDesc)\/1\.0$/.exec(url.pathname);
    if (weidianPath) {
      const param = JSON.parse(url.searchParams.get("param") ?? "{}") as { itemId?: string; vItemId?: string };
      const itemId = String(param.itemId ?? param.vItemId ?? "");
      if (weidianPath[1] === "getDetailDesc") {
        const state = items.get(`weidian:${itemId}`);
        const blocks = state && typeof state === "object" && !("hang" in state) ? (state.description ?? []) : [];
        return json(200, {
          status: { code: 0 },
          result: { item_detail: { desc_content: [...blocks.map((text) => ({ type: 1, text })), { type: 2, url: pic("desc") }] } },
        });
      }
      return answer(
        "weidian",
        itemId,
        (item) => json(200, weidianAnswer(itemId, item)),
        () => json(200, { status: { code: 2, message: "商品不存在", description: "" }, result: null }),
      );
    }

    // Taobao and Tmall (one API)
    if (url.pathname === "/h5api.m.taobao.com/h5/mtop.taobao.detail.getdetail/6.0/") {
      const itemId = String((JSON.parse(url.searchParams.get("data") ?? "{}") as { itemNumId?: string }).itemNumId ?? "");
      const platform: FakePlatform = items.has(`tmall:${itemId}`) ? "tmall" : "taobao";
      return answer(
        platform,
        itemId,
        (item) => json(200, taobaoAnswer(itemId, item)),
        () => json(200, { api: "mtop.taobao.detail.getdetail", v: "6.0", ret: ["ERRCODE_QUERY_DETAIL_FAIL::宝贝不存在"], data: {} }),
      );
    }

    // 1688
    const offer = /^\/detail\.1688\.com\/offer\/(\d+)\.html$/.exec(url.pathname);
    if (offer) {
      return answer(
        "1688",
        offer[1],
        (item) => {
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          res.end(offerPage(offer[1], item));
        },
        () => {
          res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" });
          res.end("<html><body>该商品不存在</body></html>");
        },
      );
    }

    // short links: /<host>/<code>
    const short = /^\/([^/]+)\/(.+)$/.exec(url.pathname);
    const location = short ? shortLinks.get(`${short[1]}/${short[2]}`) : undefined;
    if (short && location) {
      const delay = shortDelays.get(`${short[1]}/${short[2]}`);
      if (delay) {
        const host = short[1];
        setTimeout(() => {
          if (res.destroyed) return;
          if (host === "m.tb.cn") {
            res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
            res.end(`<html><head><script>var url = '${location}';</script></head></html>`);
          } else {
            res.writeHead(302, { Location: location });
            res.end();
          }
        }, delay);
        return;
      }
      if (short[1] === "m.tb.cn") {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          `<html><head><script>var url = '${location}';setTimeout(function(){location.replace(url)},0);</script></head><body>正在打开…</body></html>`,
        );
        return;
      }
      res.writeHead(302, { Location: location });
      res.end();
      return;
    }
    res.writeHead(404).end("not here");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    set: (platform, itemId, state) => items.set(`${platform}:${itemId}`, state),
    shortLink: (host, code, target, options) => {
      shortLinks.set(`${host}/${code}`, target);
      if (options?.delayMs) shortDelays.set(`${host}/${code}`, options.delayMs);
    },
    peakOpen: () => peak,
    resetPeak: () => {
      peak = open;
    },
    hits: (platform, itemId) => counts.get(`${platform}:${itemId}`) ?? 0,
    picture: (url, bytes) => pictures.set(pictureKey(url), bytes),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
