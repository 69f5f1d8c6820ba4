/**
 * Marketplace links over real HTTP against a fake marketplace on 127.0.0.1: the crawl
 * adapters (an item, a missing one, a malformed answer, a failure, a timeout), the kept
 * answers, short links and the allowlist (a short link leading to a private address is
 * refused), and find-or-import from the search box and the paste box, also under
 * parallel imports.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import { row, withServerDb } from "../setup/server-db";

let server: TestServer;
let fake: FakeMarketplace;
let admin: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;
const id = (digits: number) =>
  String(6 + Math.floor(Math.random() * 3)) +
  String(Date.now() + (counter += 1))
    .padStart(digits - 1, "7")
    .slice(-(digits - 1));

async function shopper() {
  const username = unique("buyer");
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username, email: `${username}@example.com`, password: "buyer-pass-1" },
  });
  expect(made.status).toBe(201);
  return {
    token: (await apiLogin(server.url, `${username}@example.com`, "buyer-pass-1")).accessToken,
    cookie: await formLogin(server.url, `${username}@example.com`, "buyer-pass-1"),
  };
}

const crawl = (path: string, token?: string) => api(server.url, path, { token });
const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");

let buyer: { token: string; cookie: string };

beforeAll(async () => {
  fake = await startFakeMarketplace();
  server = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "800" } });
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  buyer = await shopper();
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe("crawl adapters", () => {
  it("reads a Weidian item: title, price in CNY, pictures, SKUs, description, shop, canonical link", async () => {
    const itemId = id(10);
    fake.set("weidian", itemId, {
      title: "潮流卫衣 Hoodie",
      price: 129.5,
      images: ["https://img.example-cdn.test/a.jpg", "https://img.example-cdn.test/b.jpg"],
      skus: [
        { name: "黑色 M", price: 129.5, stock: 12, image: "https://img.example-cdn.test/black.jpg" },
        { name: "黑色 L", price: 139, stock: 0 },
      ],
      description: ["纯棉面料 cotton", "宽松版型 relaxed fit"],
      shopName: "阿杰严选",
    });
    const response = await crawl(`/api/crawl/weidian?itemId=${itemId}`, buyer.token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({
      itemId,
      platform: "weidian",
      source: "weidian",
      title: "潮流卫衣 Hoodie",
      price: 129.5,
      images: ["https://img.example-cdn.test/a.jpg", "https://img.example-cdn.test/b.jpg", "https://img.example-cdn.test/black.jpg"],
      skus: [
        { sku_name: "黑色 M", sku_price: 129.5, sku_stock: 12, sku_thumbnail_url: "https://img.example-cdn.test/black.jpg" },
        { sku_name: "黑色 L", sku_price: 139, sku_stock: 0, sku_thumbnail_url: null },
      ],
      description: ["纯棉面料 cotton", "宽松版型 relaxed fit"],
      descriptionItems: ["纯棉面料 cotton", "宽松版型 relaxed fit"],
      shopName: "阿杰严选",
      originalUrl: `https://weidian.com/item.html?itemID=${itemId}`,
    });
  });

  it("reads Taobao and Tmall items through the one API, and a 1688 offer page", async () => {
    const taobaoId = id(12);
    fake.set("taobao", taobaoId, {
      title: "复古工装裤 cargo",
      price: 89,
      skus: [{ name: "卡其 / M", price: 89, stock: 30 }],
      shopName: "北街古着",
      description: ["品牌: Vintage"],
    });
    const taobao = await crawl(`/api/crawl/taobao?itemId=${taobaoId}`, buyer.token);
    expect(taobao.status, JSON.stringify(taobao.body)).toBe(200);
    expect(taobao.body.data).toMatchObject({
      platform: "taobao",
      title: "复古工装裤 cargo",
      price: 89,
      shopName: "北街古着",
      originalUrl: `https://item.taobao.com/item.htm?id=${taobaoId}`,
    });
    expect(taobao.body.data.skus).toEqual([{ sku_name: "卡其 / M", sku_price: 89, sku_stock: 30, sku_thumbnail_url: null }]);
    expect(taobao.body.data.images[0]).toMatch(/^https:\/\//);

    const tmallId = id(12);
    fake.set("tmall", tmallId, { title: "羽绒服 down jacket", price: 899 });
    const tmall = await crawl(`/api/crawl/taobao?itemId=${tmallId}&platform=tmall`, buyer.token);
    expect(tmall.body.data).toMatchObject({
      platform: "tmall",
      originalUrl: `https://detail.tmall.com/item.htm?id=${tmallId}`,
      price: 899,
    });

    const offerId = id(12);
    fake.set("1688", offerId, {
      title: "义乌小商品 keychain",
      price: 2.5,
      skus: [{ name: "红色 / 大号", price: 2.8, stock: 1000 }],
      shopName: "义乌小商品批发",
    });
    const offer = await crawl(`/api/crawl/1688?itemId=${offerId}`, buyer.token);
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    expect(offer.body.data).toMatchObject({
      platform: "1688",
      title: "义乌小商品 keychain",
      price: 2.5,
      shopName: "义乌小商品批发",
      originalUrl: `https://detail.1688.com/offer/${offerId}.html`,
    });
    expect(offer.body.data.skus).toEqual([{ sku_name: "红色 / 大号", sku_price: 2.8, sku_stock: 1000, sku_thumbnail_url: null }]);
  });

  it("answers 404 for a missing item and a clear 502 'Fetch failed' for a malformed answer, a failing or a silent marketplace", async () => {
    const missing = await crawl(`/api/crawl/weidian?itemId=${id(10)}`, buyer.token);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/not found on Weidian/);
    for (const [platform, state] of [
      ["weidian", "malformed"],
      ["1688", "error"],
      ["taobao", { hang: true }],
    ] as const) {
      const itemId = id(12);
      fake.set(platform, itemId, state);
      const started = Date.now();
      const response = await crawl(`/api/crawl/${platform}?itemId=${itemId}`, buyer.token);
      expect(response.status, `${platform} ${JSON.stringify(state)}`).toBe(502);
      expect(response.body).toMatchObject({ success: false, code: "FETCH_FAILED" });
      expect(response.body.message).toMatch(/^Fetch failed/);
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it("keeps recent answers: the same item asked twice reaches the marketplace once", async () => {
    const itemId = id(10);
    fake.set("weidian", itemId, { title: "Kept item", price: 10 });
    expect((await crawl(`/api/crawl/weidian?itemId=${itemId}`, buyer.token)).status).toBe(200);
    const hits = fake.hits("weidian", itemId);
    expect((await crawl(`/api/crawl/weidian?itemId=${itemId}`, buyer.token)).status).toBe(200);
    expect(fake.hits("weidian", itemId)).toBe(hits);
  });

  it("keeps them across a restart: the answer is in the database, for every instance", async () => {
    const itemId = id(10);
    fake.set("weidian", itemId, { title: "Kept through a restart", price: 11 });
    expect((await crawl(`/api/crawl/weidian?itemId=${itemId}`, buyer.token)).status).toBe(200);
    const hits = fake.hits("weidian", itemId);
    expect(await server.stop()).toBe(0);
    server = await startTestServer({ dataDir: server.dataDir, env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "800" } });
    const again = await crawl(`/api/crawl/weidian?itemId=${itemId}`, buyer.token);
    expect(again.body.data).toMatchObject({ itemId, title: "Kept through a restart", price: 11 });
    expect(fake.hits("weidian", itemId)).toBe(hits);
  });

  it("needs a login and an item id", async () => {
    expect((await crawl(`/api/crawl/weidian?itemId=${id(10)}`)).status).toBe(401);
    const noId = await crawl("/api/crawl/weidian", buyer.token);
    expect(noId.status).toBe(400);
    expect(noId.body.message).toBe("Item ID is required");
    expect((await crawl("/api/crawl/weidian?itemId=abc", buyer.token)).status).toBe(400);
    expect((await crawl(`/api/crawl/amazon?itemId=${id(10)}`, buyer.token)).status).toBe(404);
  });
});

describe("find or import", () => {
  it("a link of a product in the catalogue, pasted in the search box, opens its page; so do its agent links and a bare number", async () => {
    const itemId = id(10);
    const made = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId, title: "Already here", price: 5, source: "weidian" },
    });
    expect(made.status).toBe(201);
    for (const q of [
      `https://weidian.com/item.html?itemID=${itemId}`,
      `【微店】看看这个 https://shop123.v.weidian.com/item.html?itemID=${itemId} 「Already here」`,
      `https://www.hoobuy.com/product/2/${itemId}?inviteCode=x`,
      itemId,
    ]) {
      const response = await getPage(server.url, `/search?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(302);
      expect(response.headers.get("location"), q).toBe(`/weidian/${itemId}`);
    }
  });

  it("offers a new item for import: visitors are asked to log in, shoppers import it and land on its page; a second paste finds it", async () => {
    const itemId = id(12);
    fake.set("taobao", itemId, {
      title: "Imported cargo pants",
      price: 99,
      skus: [{ name: "Grey / M", price: 99, stock: 3 }],
      shopName: "North Street",
    });
    const link = `https://item.taobao.com/item.htm?id=${itemId}`;
    const visitor = await text(await getPage(server.url, `/search?q=${encodeURIComponent(link)}`));
    expect(visitor).toContain(`Taobao item ${itemId}</strong> is not in the catalogue yet.`);
    expect(visitor).toContain(`/login?redirectTo=${encodeURIComponent(`/import?link=${encodeURIComponent(link)}`)}`);

    const visitorPost = await postForm(server.url, "/import", "", { link });
    expect(visitorPost.status).toBe(302);
    expect(visitorPost.headers.get("location")).toMatch(/^\/login\?redirectTo=/);

    const imported = await postForm(server.url, "/import", buyer.cookie, { link });
    expect(imported.headers.get("location")).toBe(`/taobao/${itemId}`);
    const page = (await toastAfter(server.url, imported, buyer.cookie)).replace(/<!-- -->/g, "");
    expect(page).toContain("Imported from Taobao.");
    expect(page).toContain("Imported cargo pants");
    expect(page).toContain("North Street");
    expect(page).toContain("Grey / M");

    const again = await getPage(
      server.url,
      `/import?link=${encodeURIComponent(`https://www.kakobuy.com/item/details?url=${encodeURIComponent(link)}`)}`,
    );
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`/taobao/${itemId}`);
  });

  it("imports one product when shoppers import the same new item at once", async () => {
    const itemId = id(10);
    fake.set("weidian", itemId, { title: "Popular new item", price: 20 });
    const other = await shopper();
    const link = `https://weidian.com/item.html?itemID=${itemId}`;
    const answers = await Promise.all([buyer, other, buyer, other].map((who) => postForm(server.url, "/import", who.cookie, { link })));
    for (const answer of answers) expect(answer.headers.get("location")).toBe(`/weidian/${itemId}`);
    const list = await api(server.url, `/api/products?q=${itemId}&isExternal=true`, { token: admin });
    expect(list.body.items.filter((p: { platform_item_id: string }) => p.platform_item_id === itemId)).toHaveLength(1);
  });

  it("asks whether a 10–12 digit number is a Weidian or a 1688 item, and imports the one chosen", async () => {
    const itemId = id(11);
    fake.set("1688", itemId, { title: "Wholesale socks", price: 1.2 });
    const page = await text(await getPage(server.url, `/import?link=${itemId}`, buyer.cookie));
    expect(page).toContain('name="platform" value="weidian"');
    expect(page).toContain('name="platform" value="1688"');
    const imported = await postForm(server.url, "/import", buyer.cookie, { link: itemId, platform: "1688" });
    expect(imported.headers.get("location")).toBe(`/1688/${itemId}`);
  });

  it("names what is wrong: an unsupported link, an item the marketplace does not have, a marketplace that fails", async () => {
    const unsupported = await text(
      await getPage(server.url, `/import?link=${encodeURIComponent("https://www.amazon.com/dp/B0001")}`, buyer.cookie),
    );
    expect(unsupported).not.toContain("is not in the catalogue");
    const search = await text(await getPage(server.url, `/search?q=${encodeURIComponent("https://qr.1688.com/s/abcdef")}`));
    expect(search).toContain("1688 QR links can only be opened in the 1688 app.");

    const missing = await postForm(server.url, "/import", buyer.cookie, { link: `https://weidian.com/item.html?itemID=${id(10)}` });
    expect(missing.status).toBe(404);
    expect(await text(missing)).toContain("We could not find this item on Weidian. Check the link and try again.");
    const brokenId = id(10);
    fake.set("weidian", brokenId, "malformed");
    const broken = await postForm(server.url, "/import", buyer.cookie, { link: `https://weidian.com/item.html?itemID=${brokenId}` });
    expect(broken.status).toBe(502);
    expect(await text(broken)).toContain("Weidian did not answer (fetch failed). Try again in a minute.");
  });
});

describe("no dead ends", () => {
  it("gives a visitor the item's marketplace page and the agents' links at once, and the import offer after logging in", async () => {
    const itemId = id(10);
    const link = `https://weidian.com/item.html?itemID=${itemId}`;
    const visitor = await text(await getPage(server.url, `/search?q=${encodeURIComponent(link)}`));
    expect(visitor).toContain(`Weidian item ${itemId}</strong> is not in the catalogue yet.`);
    expect(visitor).toContain(`href="https://weidian.com/item.html?itemID=${itemId}"`);
    expect(visitor).toContain("Open on Weidian");
    // the shown agents' links, as on a product page
    expect(visitor).toContain(`href="https://cnfans.com/product?id=${itemId}&amp;platform=WEIDIAN"`);
    expect(visitor).toContain("Buy via CNFans");
    // hidden agents are read, never offered
    expect(visitor).not.toContain("Buy via LoveGoBuy");
    expect(visitor).not.toContain('action="/import"');
    const shopperPage = await text(await getPage(server.url, `/import?link=${encodeURIComponent(link)}`, buyer.cookie));
    expect(shopperPage).toContain('action="/import"');
    expect(shopperPage).toContain("Buy via CNFans");
  });

  it("answers /:platform/:unknown id with a 404 that still leads somewhere", async () => {
    const itemId = id(12);
    const response = await getPage(server.url, `/taobao/${itemId}`);
    expect(response.status).toBe(404);
    const page = await text(response);
    expect(page).toContain("Not in the catalogue yet");
    expect(page).toContain(`href="https://item.taobao.com/item.htm?id=${itemId}"`);
    expect(page).toContain("Buy via CNFans");
    expect(page).toContain("/login?redirectTo=");
    // a malformed id is the plain 404
    const plain = await text(await getPage(server.url, "/taobao/not-an-id"));
    expect(plain).toContain("Page not found");
    expect(plain).not.toContain("Not in the catalogue yet");
  });

  it("lists every link of a pasted text, in the order pasted: found, new, and not an item", async () => {
    const known = id(10);
    const made = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId: known, title: "Listed already", price: 5, source: "weidian" },
    });
    expect(made.status).toBe(201);
    const fresh = id(12);
    const pasted = [
      `finds: https://www.amazon.com/dp/B0001`,
      `https://item.taobao.com/item.htm?id=${fresh}`,
      `https://www.hoobuy.com/product/2/${known}`,
      `https://weidian.com/item.html?itemID=${known}`,
    ].join(" ");
    for (const path of [`/search?q=${encodeURIComponent(pasted)}`, `/import?link=${encodeURIComponent(pasted)}`]) {
      const response = await getPage(server.url, path, buyer.cookie);
      expect(response.status, path).toBe(200);
      const page = await text(response);
      expect(page).toContain("pasted-list");
      const amazon = page.indexOf("This is not a Weidian, Taobao, Tmall or 1688 product link or id.");
      const taobao = page.indexOf(`Taobao item ${fresh}</strong> is not in the catalogue yet.`);
      const weidian = page.indexOf(`href="/weidian/${known}"`);
      expect(amazon, path).toBeGreaterThan(-1);
      expect(taobao, path).toBeGreaterThan(amazon);
      expect(weidian, path).toBeGreaterThan(taobao);
      // the same item twice is listed once
      expect(page.split(`href="/weidian/${known}"`).length - 1, path).toBe(1);
      expect(page).toContain("Listed already");
    }
  });
});

describe("short links", () => {
  it("opens m.tb.cn (a page with a script redirect) and redirecting short links on the server", async () => {
    const itemId = id(12);
    fake.set("taobao", itemId, { title: "Shared item", price: 15 });
    fake.shortLink("m.tb.cn", "h.abc123", `https://item.taobao.com/item.htm?id=${itemId}&ut_sk=1.abc`);
    const share = `【淘宝】https://m.tb.cn/h.abc123?tk=XyZ CZ0001 「Shared item」点击链接直接打开`;
    const page = await text(await getPage(server.url, `/search?q=${encodeURIComponent(share)}`));
    expect(page).toContain(`Taobao item ${itemId}</strong> is not in the catalogue yet.`);

    const weidianId = id(10);
    fake.shortLink("weidian.info", "q1", `https://weidian.com/item.html?itemID=${weidianId}`);
    const followed = await text(await getPage(server.url, `/import?link=${encodeURIComponent("https://weidian.info/q1")}`));
    expect(followed).toContain(`Weidian item ${weidianId}</strong>`);

    // a short link to an agent's link
    fake.shortLink("hoobuy.cc", "z9", `https://www.hoobuy.com/product/0/${itemId}`);
    expect(await text(await getPage(server.url, `/import?link=${encodeURIComponent("https://hoobuy.cc/z9")}`))).toContain(
      `1688 item ${itemId}</strong>`,
    );
  });

  it("refuses a short link that leads to a private address or a site off the allowlist, without fetching it", async () => {
    const before = fake.requests.length;
    for (const [code, location] of [
      ["private", `http://127.0.0.1:${fake.port}/detail.1688.com/offer/123456789012.html`],
      ["lan", "http://10.1.2.3/admin"],
      ["named", "http://localhost:3000/api/admin/users"],
      ["elsewhere", "https://evil.example/steal"],
    ]) {
      fake.shortLink("tinyurl.com", code, location);
      const page = await text(await getPage(server.url, `/import?link=${encodeURIComponent(`https://tinyurl.com/${code}`)}`));
      expect(page, code).toContain("This short link could not be opened.");
    }
    // only the four short links themselves were asked for
    expect(fake.requests.slice(before).every((request) => request.startsWith("/tinyurl.com/"))).toBe(true);
  });
});

describe("what visitors can make the server fetch", () => {
  it("gives a short link one deadline for all its redirects, not one per hop", async () => {
    const itemId = id(12);
    fake.set("taobao", itemId, { title: "Far away item", price: 9 });
    // six hops of 300 ms each: every hop answers well within the 800 ms limit, the walk does not
    for (let hop = 1; hop <= 6; hop++) {
      const next = hop < 6 ? `https://tinyurl.com/slow-${itemId}-${hop + 1}` : `https://item.taobao.com/item.htm?id=${itemId}`;
      fake.shortLink("tinyurl.com", `slow-${itemId}-${hop}`, next, { delayMs: 300 });
    }
    const started = performance.now();
    const page = await text(await getPage(server.url, `/import?link=${encodeURIComponent(`https://tinyurl.com/slow-${itemId}-1`)}`));
    const elapsed = performance.now() - started;
    expect(page).toContain("This short link could not be opened.");
    expect(elapsed).toBeLessThan(1600);
  });

  it("has at most 8 requests out to the marketplaces at once, however many visitors paste links", async () => {
    const codes = Array.from({ length: 20 }, (_, n) => `busy-${unique("c")}-${n}`);
    for (const code of codes) fake.shortLink("tinyurl.com", code, `https://item.taobao.com/item.htm?id=${id(12)}`, { delayMs: 250 });
    fake.resetPeak();
    const pages = await Promise.all(
      codes.map((code) => getPage(server.url, `/import?link=${encodeURIComponent(`https://tinyurl.com/${code}`)}`)),
    );
    for (const page of pages) expect(page.status).toBe(200);
    expect(fake.peakOpen()).toBeGreaterThan(1);
    expect(fake.peakOpen()).toBeLessThanOrEqual(8);
  });
});

describe("visitors behind a proxy on the same host (every address is 127.0.0.1)", () => {
  let shared: TestServer;
  beforeAll(async () => {
    shared = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url } });
  });
  afterAll(async () => {
    await shared?.stop();
  });

  it("are counted together: short links opened for them stop at the shared limit (120 an hour)", async () => {
    const target = `https://item.taobao.com/item.htm?id=${id(12)}`;
    let n = 0;
    // a link of its own each time (the same search again would be a page kept for visitors: no fetch)
    const open = async () => {
      fake.shortLink("tinyurl.com", `shared-${(n += 1)}`, target);
      return text(await getPage(shared.url, `/search?q=${encodeURIComponent(`https://tinyurl.com/shared-${n}`)}`));
    };
    for (let lookup = 1; lookup <= 120; lookup++) expect(await open(), `lookup ${lookup}`).toContain("is not in the catalogue yet.");
    expect(await open()).toContain("Too many requests, please try again later");
  }, 60_000);
});

describe("POST /api/products/sync-external by a shopper", () => {
  it("makes the product from the marketplace's own answer: title, price, pictures and link are never the shopper's", async () => {
    const person = await shopper();
    const itemId = id(10);
    fake.set("weidian", itemId, {
      title: "真的商品 Real item",
      price: 88,
      images: ["https://img.example-cdn.test/real.jpg", "/uploads/qc/2026-11/pending.webp"],
    });
    const made = await api(server.url, "/api/products/sync-external", {
      token: person.token,
      body: {
        itemId,
        source: "weidian",
        title: "FREE GIFT click here",
        price: 1,
        images: ["/uploads/qc/2026-11/0b0e3b1c-8a4e-4b8e-9d64-2b1f6d5c7a10.webp", "https://tracker.example/pixel.gif"],
        originalUrl: "https://phish.example/weidian/login",
        shopName: "Official store (fake)",
        showInListing: true,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({
      title: "真的商品 Real item",
      price_cny: 88,
      images: ["https://img.example-cdn.test/real.jpg"],
      original_url: `https://weidian.com/item.html?itemID=${itemId}`,
      is_external: true,
    });
    expect(made.body.data.shop_name).not.toBe("Official store (fake)");
    // a second call answers the product as it is, without reaching the marketplace again
    const hits = fake.hits("weidian", itemId);
    const again = await api(server.url, "/api/products/sync-external", {
      token: person.token,
      body: { itemId, source: "weidian", title: "Vandalised" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.title).toBe("真的商品 Real item");
    expect(fake.hits("weidian", itemId)).toBe(hits);
  });

  it("stores nothing when the marketplace does not have the item or does not answer, and says so", async () => {
    const person = await shopper();
    const missing = id(12);
    const refused = await api(server.url, "/api/products/sync-external", {
      token: person.token,
      body: { itemId: missing, source: "taobao", title: "Squatted item", price: 1 },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, code: "ITEM_NOT_FOUND" });
    expect((await api(server.url, `/api/products/platform/${missing}?platform=taobao`)).status).toBe(404);
    const failing = id(12);
    fake.set("1688", failing, "error");
    const failed = await api(server.url, "/api/products/sync-external", {
      token: person.token,
      body: { itemId: failing, source: "1688", title: "Made up" },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/fetch failed/i);
    expect((await api(server.url, `/api/products/platform/${failing}?platform=1688`)).status).toBe(404);
  });

  it("limits how many items a shopper imports (30 an hour), staff not at all", async () => {
    const person = await shopper();
    for (let n = 1; n <= 30; n++) {
      const itemId = id(10);
      fake.set("weidian", itemId, { title: `Bulk item ${n}`, price: n });
      expect(
        (await api(server.url, "/api/products/sync-external", { token: person.token, body: { itemId, source: "weidian", title: "x" } }))
          .status,
        `import ${n}`,
      ).toBe(201);
    }
    const itemId = id(10);
    fake.set("weidian", itemId, { title: "One too many", price: 1 });
    const refused = await api(server.url, "/api/products/sync-external", {
      token: person.token,
      body: { itemId, source: "weidian", title: "x" },
    });
    expect(refused.status).toBe(429);
    expect((await api(server.url, `/api/products/platform/${itemId}?platform=weidian`)).status).toBe(404);
    const byStaff = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId, source: "weidian", title: "Staff item" },
    });
    expect(byStaff.status).toBe(201);
  });
});

describe("Taobao and Tmall share item numbers: one listing, one product", () => {
  const count = (itemId: string) =>
    withServerDb(server.dataDir, async (db) =>
      Number((await row(db, sql<{ n: number }>`SELECT count(*) AS n FROM products WHERE platform_item_id = ${itemId}`))!.n),
    );

  it("a Tmall link finds the Taobao product of its id, and a Taobao link the Tmall one, everywhere a link or id is looked up", async () => {
    for (const [made, other] of [
      ["taobao", "tmall"],
      ["tmall", "taobao"],
    ] as const) {
      const itemId = id(12);
      const created = await api(server.url, "/api/products/sync-external", {
        token: admin,
        body: { itemId, title: `One listing on ${made}`, price: 42, source: made },
      });
      expect(created.status).toBe(201);
      const path = `/${made}/${itemId}`;
      const link = other === "tmall" ? `https://detail.tmall.com/item.htm?id=${itemId}` : `https://item.taobao.com/item.htm?id=${itemId}`;

      // the search box and the paste box open the product
      for (const page of [`/search?q=${encodeURIComponent(link)}`, `/import?link=${encodeURIComponent(link)}`]) {
        const found = await getPage(server.url, page);
        expect(found.status, page).toBe(302);
        expect(found.headers.get("location"), page).toBe(path);
      }
      // the other marketplace's address of the item leads to its page
      const twin = await getPage(server.url, `/${other}/${itemId}`);
      expect(twin.status).toBe(301);
      expect(twin.headers.get("location")).toBe(path);
      // the API's lookup by platform
      const byPlatform = await api(server.url, `/api/products/platform/${itemId}?platform=${other}`);
      expect(byPlatform.status).toBe(200);
      expect(byPlatform.body.data.id).toBe(created.body.data.id);

      // importing it finds it: a shopper's paste box, a shopper's and staff's sync-external
      const imported = await postForm(server.url, "/import", buyer.cookie, { link });
      expect(imported.status).toBe(302);
      expect(imported.headers.get("location")).toBe(path);
      for (const token of [buyer.token, admin]) {
        const synced = await api(server.url, "/api/products/sync-external", {
          token,
          body: { itemId, title: `One listing on ${made}`, price: 42, source: other },
        });
        expect(synced.status, JSON.stringify(synced.body)).toBe(200);
        expect(synced.body.data.id).toBe(created.body.data.id);
      }
      expect(await count(itemId)).toBe(1);
      // nothing was asked of the marketplace
      expect(fake.hits("taobao", itemId) + fake.hits("tmall", itemId)).toBe(0);
    }
  });

  it("refuses staff a second product of a listing on its twin marketplace: 409 on platform_item_id, created or edited", async () => {
    const itemId = id(12);
    const first = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: "Listing kept as Taobao", price_cny: 30, platform: "taobao", platform_item_id: itemId },
    });
    expect(first.status).toBe(201);
    const twin = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: "The same listing as Tmall", price_cny: 30, platform: "tmall", platform_item_id: itemId },
    });
    expect(twin.status).toBe(409);
    expect(twin.body.errors?.[0]?.field).toBe("platform_item_id");
    const other = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: "Another listing", price_cny: 30, platform: "tmall", platform_item_id: id(12) },
    });
    expect(other.status).toBe(201);
    const moved = await api(server.url, `/api/admin/products/${other.body.data.id}`, {
      token: admin,
      method: "PUT",
      body: { platform_item_id: itemId },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.errors?.[0]?.field).toBe("platform_item_id");
    // the product itself may be saved again as it is
    const same = await api(server.url, `/api/admin/products/${first.body.data.id}`, {
      token: admin,
      method: "PUT",
      body: { price_cny: 31 },
    });
    expect(same.status).toBe(200);
    expect(await count(itemId)).toBe(1);
  });

  it("imports one product when a Taobao and a Tmall link of a new item are imported at once", async () => {
    const itemId = id(12);
    fake.set("taobao", itemId, { title: "Raced listing", price: 10 });
    const links = [`https://item.taobao.com/item.htm?id=${itemId}`, `https://detail.tmall.com/item.htm?id=${itemId}`];
    const answers = await Promise.all([0, 1, 0, 1].map((n) => postForm(server.url, "/import", buyer.cookie, { link: links[n] })));
    const places = new Set(answers.map((answer) => answer.headers.get("location")));
    expect(places.size).toBe(1);
    expect([`/taobao/${itemId}`, `/tmall/${itemId}`]).toContain([...places][0]);
    expect(await count(itemId)).toBe(1);
  });
});
