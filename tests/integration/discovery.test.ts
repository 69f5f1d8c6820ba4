/**
 * Discovery over real HTTP (docs/decisions/028-forgiving-search.md): the forgiving search
 * (category names, typos, words run together, staff's aliases, "did you mean", popular
 * searches), the shoppers' filters and sorts on the API and on the pages as a browser
 * without JavaScript gets them, and the alias admin API with its checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_ROW } from "~/components/storefront/product-card";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
// letters only (the typo and word-join checks read whole words), and consonants that hold
// no 2-letter term searched below (aj, nb, lv, qv): a tag with "aj" in it was found by "aj"
const tag = `disc${Array.from({ length: 6 }, () => "cdfghkmprstwxz"[Math.floor(Math.random() * 14)]).join("")}`;
const BROWSER = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" };

type Made = { id: number; name: string };
const made: Record<string, Made> = {};
let parentId = 0;
let childId = 0;

async function product(key: string, body: Record<string, unknown>): Promise<Made> {
  const result = await api(server.url, "/api/admin/products", { token: admin, body });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  made[key] = { id: result.body.data.id, name: result.body.data.name };
  return made[key];
}

const qcPhotos = (n: number) => Array.from({ length: n }, (_, i) => `https://img.example/${tag}-${i}-${Math.random()}.jpg`).join(", ");

async function search(query: string) {
  const result = await api(server.url, `/api/products/search?${query}`);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as {
    items: Array<{ id: number; name: string; platform: string; price: number; qc_image_count: number }>;
    totalItems: number;
    correctedTo: string | null;
    didYouMean: string | null;
    missingWords: string[];
    popularSearches: string[];
  };
}

const names = (items: Array<{ name: string }>) => items.map((item) => item.name).sort();

async function html(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${server.url}${path}`, { headers: { ...BROWSER, ...headers } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The names on a page's product cards, in order. */
const cardNames = (page: string) =>
  [...page.matchAll(/class="product-card__name">([^<]*)</g)].map((match) => match[1].replace(/&amp;/g, "&").replace(/&#x27;/g, "'"));

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const parent = await api(server.url, "/api/admin/categories", { token: admin, body: { name: `服装 Wear ${tag}` } });
  parentId = parent.body.data.id;
  const child = await api(server.url, "/api/admin/categories", { token: admin, body: { name: `外套 Coats ${tag}`, parent_id: parentId } });
  childId = child.body.data.id;
  await product("runner", {
    name: `Quarvik Runner ${tag}`,
    platform: "weidian",
    platform_item_id: "7100000001",
    price_cny: 100,
    qc_images: qcPhotos(3),
  });
  await product("trail", {
    name: `Quarvik Trail ${tag}`,
    platform: "taobao",
    platform_item_id: "610000000002",
    price_cny: 300,
    qc_images: qcPhotos(1),
  });
  await product("jacket", {
    name: `Zephyra Orbital Jacket ${tag}`,
    platform: "tmall",
    platform_item_id: "610000000003",
    price_cny: 50,
    category_id: childId,
  });
  await product("chinese", {
    name: `奎维克 跑鞋 ${tag}`,
    platform: "1688",
    platform_item_id: "610000000004",
    price_cny: 800,
    qc_images: qcPhotos(2),
  });
  await product("tee", {
    name: `Plain Tee ${tag}`,
    platform: "weidian",
    platform_item_id: "7100000005",
    price_cny: 20,
    category_id: childId,
  });
  await product("af1", { name: `Nike Air Force 1 Low ${tag}`, platform: "taobao", platform_item_id: "610000000006", price_cny: 600 });
  // without the tag: the default aliases' own products (the tag's lists below leave them out)
  await product("jordan", { name: "Air Jordan 4 Retro Bred", platform: "taobao", platform_item_id: "610000000007", price_cny: 700 });
  await product("slides", { name: "耐克 拖鞋 夏季", platform: "taobao", platform_item_id: "610000000008", price_cny: 90 });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("search that forgives", () => {
  it("finds a category's products (and its subcategories') by the category's name", async () => {
    const coats = await search(`q=${encodeURIComponent("外套")}`);
    expect(names(coats.items)).toEqual(names([made.jacket, made.tee]));
    const byParent = await search(`q=${encodeURIComponent(`Wear ${tag}`)}`);
    expect(names(byParent.items)).toEqual(names([made.jacket, made.tee]));
    // with another word: both must match (the category's products that are tees)
    expect(names((await search(`q=${encodeURIComponent("外套 tee")}`)).items)).toEqual([made.tee.name]);
  });

  it("keeps the index in step when a category is renamed", async () => {
    const renamed = await api(server.url, `/api/admin/categories/${parentId}`, {
      method: "PUT",
      token: admin,
      body: { name: `服装 Garments ${tag}` },
    });
    expect(renamed.status).toBe(200);
    // the old name's word finds nothing any more: it is the word left out
    expect((await search(`q=${encodeURIComponent(`Wear ${tag}`)}`)).missingWords).toEqual(["wear"]);
    expect(names((await search(`q=${encodeURIComponent(`Garments ${tag}`)}`)).items)).toEqual(names([made.jacket, made.tee]));
  });

  it("corrects a typo within one or two edits when the exact search finds few, and says so", async () => {
    const typo = await search("q=quarvk");
    expect(typo.correctedTo).toBe("quarvik");
    expect(names(typo.items)).toEqual(names([made.runner, made.trail]));
    const twoEdits = await search("q=quarvikkk");
    expect(twoEdits.correctedTo).toBe("quarvik");
    expect(twoEdits.totalItems).toBe(2);
    // a word products hold is never corrected
    const exact = await search("q=quarvik");
    expect(exact.correctedTo).toBeNull();
    expect(exact.totalItems).toBe(2);
    // two words run together
    const joined = await search("q=zephyraorbital");
    expect(joined.correctedTo).toBe("zephyra orbital");
    expect(names(joined.items)).toEqual([made.jacket.name]);
    // three edits is another word
    expect((await search("q=qxaxvxk")).totalItems).toBe(0);
  });

  it("leaves out a word nothing has, and suggests the parts that find something when nothing matches", async () => {
    // a word no product has does not sink the others (corrected as they would be alone)
    const partly = await search("q=quarvk%20xqzvwq");
    expect(partly.totalItems).toBe(2);
    expect(partly.missingWords).toEqual(["xqzvwq"]);
    expect(partly.correctedTo).toBe("quarvik");
    expect(partly.didYouMean).toBeNull();
    // a typo the filters leave nothing of: the corrected word, which finds products without them
    const filtered = await search("q=quarvk&platform=tmall");
    expect(filtered.totalItems).toBe(0);
    expect(filtered.didYouMean).toBe("quarvik");
    // a right word the filters leave nothing of: no suggestion (the page offers to drop the filters)
    expect((await search("q=quarvik&platform=tmall")).didYouMean).toBeNull();
    // nothing anywhere: none
    expect((await search("q=xqzvwq")).didYouMean).toBeNull();
  });

  it("uses staff's aliases at query time: one way, both ways, and the defaults", async () => {
    expect((await search("q=qv")).totalItems).toBe(0);
    const oneWay = await api(server.url, "/api/admin/search-aliases", {
      token: admin,
      body: { term: "qv", alternatives: ["Quarvik Runner"] },
    });
    expect(oneWay.status, JSON.stringify(oneWay.body)).toBe(201);
    expect(oneWay.body.data).toMatchObject({ term: "qv", alternatives: ["Quarvik Runner"], both_ways: false });
    expect(names((await search("q=qv")).items)).toEqual([made.runner.name]);
    // one way: the alternative does not find the term's products
    expect(names((await search(`q=${encodeURIComponent("quarvik runner")}`)).items)).toEqual([made.runner.name]);

    expect(names((await search("q=quarvik")).items)).toEqual(names([made.runner, made.trail]));
    const bothWays = await api(server.url, "/api/admin/search-aliases", {
      token: admin,
      body: { term: "奎维克", alternatives: "Quarvik", both_ways: true },
    });
    expect(bothWays.status, JSON.stringify(bothWays.body)).toBe(201);
    const all = names([made.runner, made.trail, made.chinese]);
    expect(names((await search("q=quarvik")).items)).toEqual(all);
    expect(names((await search(`q=${encodeURIComponent("奎维克")}`)).items)).toEqual(all);
    // inside a longer Chinese word too
    expect(names((await search(`q=${encodeURIComponent("奎维克跑鞋")}`)).items)).toEqual([made.chinese.name]);

    // the defaults a new shop starts with: af1 → Air Force 1, aj → Air Jordan, 耐克 ↔ Nike, airforce
    expect(names((await search("q=af1")).items)).toEqual([made.af1.name]);
    expect(names((await search("q=aj")).items)).toEqual([made.jordan.name]);
    expect(names((await search("q=airforce")).items)).toEqual([made.af1.name]);
    expect(names((await search(`q=${encodeURIComponent("耐克")}`)).items)).toEqual(names([made.af1, made.slides]));
    expect(names((await search("q=nike")).items)).toEqual(names([made.af1, made.slides]));
    const list = await api(server.url, "/api/admin/search-aliases", { token: admin });
    expect(list.body.data.map((alias: { term: string }) => alias.term)).toEqual(
      expect.arrayContaining(["af1", "aj", "耐克", "qv", "奎维克"]),
    );

    // edited and deleted, the search follows at once
    const edited = await api(server.url, `/api/admin/search-aliases/${oneWay.body.data.id}`, {
      method: "PUT",
      token: admin,
      body: { term: "qv", alternatives: ["Quarvik Trail"] },
    });
    expect(edited.status).toBe(200);
    expect(names((await search("q=qv")).items)).toEqual([made.trail.name]);
    expect((await api(server.url, `/api/admin/search-aliases/${oneWay.body.data.id}`, { method: "DELETE", token: admin })).status).toBe(
      200,
    );
    expect((await search("q=qv")).totalItems).toBe(0);
  });

  it("checks an alias: fields named, duplicates refused, only for product editors", async () => {
    const empty = await api(server.url, "/api/admin/search-aliases", { token: admin, body: { term: " ", alternatives: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining(["term", "alternatives"]));
    const self = await api(server.url, "/api/admin/search-aliases", { token: admin, body: { term: "Same", alternatives: "same" } });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe("A word cannot stand for itself");
    const taken = await api(server.url, "/api/admin/search-aliases", {
      token: admin,
      body: { term: "AF1", alternatives: "Air Force One" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].field).toBe("term");
    expect((await api(server.url, "/api/admin/search-aliases", { body: { term: "x1", alternatives: "y" } })).status).toBe(401);
    expect((await api(server.url, "/api/admin/search-aliases/999999", { token: admin })).status).toBe(404);

    // a shopper's token: 403
    const shopper = await api(server.url, "/api/admin/users", {
      token: admin,
      body: { username: `shop${tag}`, email: `shop${tag}@example.com`, password: "shopper-pass-1" },
    });
    expect(shopper.status, JSON.stringify(shopper.body)).toBe(201);
    const token = (await apiLogin(server.url, `shop${tag}@example.com`, "shopper-pass-1")).accessToken;
    expect((await api(server.url, "/api/admin/search-aliases", { token, body: { term: "x1", alternatives: "y" } })).status).toBe(403);
    expect((await api(server.url, "/api/admin/search-aliases", { token })).status).toBe(403);
  });

  it("shows the popular searches (those that found products) when nothing is found", async () => {
    for (let i = 0; i < 3; i++) await html(`/search?q=Quarvik`);
    await html(`/search?q=${encodeURIComponent("奎维克")}`);
    // shown at once (written to the database within five seconds)
    const none = await search("q=nothingmatcheszz");
    expect(none.totalItems).toBe(0);
    expect(none.popularSearches[0]).toBe("quarvik");
    expect(none.popularSearches).toContain("奎维克");
    const page = await html("/search?q=nothingmatcheszz");
    expect(page).toContain("No products match your search.");
    expect(page).toMatch(/aria-label="Popular searches"[\s\S]*href="\/search\?q=quarvik"/);
    // a search that found nothing is not counted; nor is a crawler's
    for (let i = 0; i < 5; i++) await html("/search?q=nothingmatcheszz");
    for (let i = 0; i < 5; i++) await html(`/search?q=${made.tee.name.split(" ")[1]}`, { "User-Agent": "Googlebot/2.1" });
    // a corrected search counts as corrected: the misspelling is not shown to others
    for (let i = 0; i < 6; i++) await html("/search?q=zephyraa");
    const after = await search("q=nothingmatcheszz");
    expect(after.popularSearches).not.toContain("nothingmatcheszz");
    expect(after.popularSearches).not.toContain("tee");
    expect(after.popularSearches[0]).toBe("zephyra");
    expect(after.popularSearches).not.toContain("zephyraa");
  });
});

describe("filters and sorts on the API", () => {
  const q = `q=${tag}`;

  it("platform (repeated or separated by commas), on search and on the list", async () => {
    expect(names((await search(`${q}&platform=weidian`)).items)).toEqual(names([made.runner, made.tee]));
    const two = names([made.runner, made.tee, made.jacket]);
    expect(names((await search(`${q}&platform=weidian&platform=tmall`)).items)).toEqual(two);
    expect(names((await search(`${q}&platform=weidian,tmall`)).items)).toEqual(two);
    const list = await api(server.url, `/api/products?q=${tag}&platform=1688&limit=50`);
    expect(names(list.body.items)).toEqual([made.chinese.name]);
    const bad = await api(server.url, `/api/products/search?${q}&platform=ebay`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toMatch(/^platform/);
    expect(bad.body.message).toBe("platform must be weidian, taobao, tmall or 1688");
  });

  it("minPrice and maxPrice in CNY (inclusive), and their checks", async () => {
    expect(names((await search(`${q}&minPrice=50&maxPrice=300`)).items)).toEqual(names([made.runner, made.trail, made.jacket]));
    expect(names((await search(`${q}&minPrice=600`)).items)).toEqual(names([made.chinese, made.af1]));
    const list = await api(server.url, `/api/products?q=${tag}&maxPrice=20`);
    expect(names(list.body.items)).toEqual([made.tee.name]);
    const negative = await api(server.url, `/api/products/search?${q}&minPrice=-1`);
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0]).toMatchObject({ field: "minPrice", message: "minPrice must be a price of 0 or more" });
    const reversed = await api(server.url, `/api/products?maxPrice=10&minPrice=20`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe("minPrice must not be more than maxPrice");
    expect((await api(server.url, `/api/products/search?${q}&maxPrice=abc`)).status).toBe(400);
  });

  it("hasQc=1 and sortBy=qc (most QC photos first)", async () => {
    expect(names((await search(`${q}&hasQc=1`)).items)).toEqual(names([made.runner, made.trail, made.chinese]));
    const byQc = await search(`${q}&sortBy=qc&limit=3`);
    expect(byQc.items.map((item) => item.name)).toEqual([made.runner.name, made.chinese.name, made.trail.name]);
    expect(byQc.items.map((item) => item.qc_image_count)).toEqual([3, 2, 1]);
    const list = await api(server.url, `/api/products?q=${tag}&hasQc=true&sortBy=qc`);
    expect(list.body.items.map((item: { name: string }) => item.name)).toEqual([made.runner.name, made.chinese.name, made.trail.name]);
  });

  it("combines filters with a sort, and keeps the spec's page size", async () => {
    const combined = await search(`${q}&platform=weidian&platform=taobao&minPrice=90&sortBy=price_desc`);
    expect(combined.items.map((item) => item.name)).toEqual([made.af1.name, made.trail.name, made.runner.name]);
    expect((await api(server.url, `/api/products/search?${q}`)).body.limit).toBe(8);
  });
});

describe("filters and sorts on the pages, without JavaScript", () => {
  const q = `q=${tag}`;

  it("platform, qc and sort=qc; the form shows what is applied", async () => {
    const weidian = await html(`/search?${q}&platform=weidian`);
    expect(cardNames(weidian).sort()).toEqual(names([made.runner, made.tee]));
    expect(weidian).toMatch(/<input type="checkbox" name="platform" checked="" value="weidian"\/>/);
    expect(weidian).toMatch(/<input type="checkbox" name="platform" value="taobao"\/>/);
    const two = await html(`/search?${q}&platform=weidian&platform=tmall`);
    expect(cardNames(two).sort()).toEqual(names([made.runner, made.tee, made.jacket]));
    const qc = await html(`/search?${q}&qc=1&sort=qc`);
    expect(cardNames(qc)).toEqual([made.runner.name, made.chinese.name, made.trail.name]);
    expect(qc).toContain("3 QC photos");
    expect(qc).toMatch(/<option value="qc" selected="">Most QC photos<\/option>/);
  });

  it("min and max are in the visitor's currency; a bad bound is said, not applied", async () => {
    // 10–50 USD at the built-in rate (6.64 CNY) is 66.40–332 CNY
    const usd = await html(`/search?${q}&min=10&max=50`, { Cookie: "currency=USD" });
    expect(cardNames(usd).sort()).toEqual(names([made.runner, made.trail]));
    const cny = await html(`/search?${q}&min=10&max=50`, { Cookie: "currency=CNY" });
    expect(cardNames(cny).sort()).toEqual(names([made.tee, made.jacket]));
    const bad = await html(`/search?${q}&min=abc`);
    expect(bad).toContain("Enter prices as numbers, the lowest first");
    expect(cardNames(bad)).toHaveLength(6);
  });

  it("per page (12, 24, 48) and paging links that keep every filter", async () => {
    for (let i = 0; i < 14; i++) {
      await product(`bulk${i}`, {
        name: `Bulkitem ${tag} ${i}`,
        platform: "weidian",
        platform_item_id: `72000000${10 + i}`,
        price_cny: 10 + i,
        main_images: `https://img.example/${tag}-bulk-${i}.jpg`,
      });
    }
    const first = await html(`/search?q=bulkitem&platform=weidian&per=12&sort=price_asc`);
    // the first row's pictures load with the page (often its largest paint); the rest when near the viewport
    const loading = [...first.matchAll(/<img class="product-card__image"[^>]*>/g)].map((match) => /loading="lazy"/.test(match[0]));
    expect(loading).toEqual(Array.from({ length: 12 }, (_, index) => index >= FIRST_ROW));
    expect(cardNames(first)).toHaveLength(12);
    expect(cardNames(first)[0]).toBe(`Bulkitem ${tag} 0`);
    const next = first.match(/href="(\/search\?[^"]*page=2[^"]*)"/)?.[1].replace(/&amp;/g, "&");
    expect(next).toBeDefined();
    const params = new URLSearchParams(next!.split("?")[1]);
    expect(params.get("platform")).toBe("weidian");
    expect(params.get("per")).toBe("12");
    expect(params.get("sort")).toBe("price_asc");
    expect(cardNames(await html(next!))).toHaveLength(2);
    expect(cardNames(await html(`/search?q=bulkitem`))).toHaveLength(14);
    // an unknown size is the default
    expect(cardNames(await html(`/search?q=bulkitem&per=13`))).toHaveLength(14);
  });

  it("/search without words lists everything, newest first", async () => {
    const all = await html("/search");
    expect(all).toContain("All products");
    const cards = cardNames(all);
    expect(cards[0]).toBe(`Bulkitem ${tag} 13`);
    expect(cards).toHaveLength(22);
    expect(all).toContain("22 products found");
    const weidian = await html("/search?platform=1688");
    expect(cardNames(weidian)).toEqual([made.chinese.name]);
  });

  it("category names, typos, aliases and suggestions on the page", async () => {
    expect(cardNames(await html(`/search?q=${encodeURIComponent("外套")}`)).sort()).toEqual(names([made.jacket, made.tee]));
    const typo = await html("/search?q=quarvk");
    expect(typo).toMatch(/Including results for <a [^>]*href="\/search\?q=quarvik">“quarvik”<\/a>/);
    expect(cardNames(typo)).toContain(made.runner.name);
    expect(cardNames(await html("/search?q=af1"))).toEqual([made.af1.name]);
    expect(cardNames(await html("/search?q=aj"))).toEqual([made.jordan.name]);
    expect(cardNames(await html(`/search?q=${encodeURIComponent("耐克")}`)).sort()).toEqual(names([made.af1, made.slides]));
    expect(cardNames(await html("/search?q=Nike")).sort()).toEqual(names([made.af1, made.slides]));
    const partly = await html("/search?q=quarvk%20xqzvwq");
    expect(partly).toContain("showing products without “xqzvwq”");
    expect(cardNames(partly)).toContain(made.runner.name);
    const suggestion = await html("/search?q=quarvk&platform=tmall");
    expect(suggestion).toMatch(/Did you mean <a [^>]*href="\/search\?q=quarvik">“quarvik”<\/a>\?/);
  });

  it("a category page takes the same filters and sorts", async () => {
    const page = await html(`/category/${childId}?platform=weidian`);
    expect(cardNames(page)).toEqual([made.tee.name]);
    const byPrice = await html(`/category/${parentId}?sort=price_desc`);
    expect(cardNames(byPrice)).toEqual([made.jacket.name, made.tee.name]);
    expect(cardNames(await html(`/category/${parentId}?qc=1`))).toEqual([]);
    expect(await html(`/category/${parentId}?qc=1`)).toContain("No products in this category match the filters.");
  });

  it("the header's category menu works without JavaScript", async () => {
    const home = await html("/");
    expect(home).toMatch(
      /<details class="category-menu"><summary>[\s\S]*?<span class="category-menu__label">Categories<\/span><\/summary>/,
    );
    expect(home).toContain(`href="/category/${childId}"`);
    expect(home).toContain('href="/search">All products</a>');
  });
});
