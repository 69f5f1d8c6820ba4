/**
 * The catalogue API over real HTTP: products and categories (public and admin), search
 * (trigram and short terms, hostile input), the external-products switch, collections,
 * sync-external under parallel calls, product images, and the guards on every endpoint.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { databaseUrlOf } from "../setup/postgres";
import { outputCaughtUp, startTestServer, type TestServer } from "../setup/server";
import { startFakeRates, type FakeRates } from "../fakes/rates";
import { rawGet } from "./http";

let server: TestServer;
let rates: FakeRates;
let admin: string;
let user: string;
let userId: number;
let editorOfOthers: string;
let categories: { shoes: number; hoodies: number; sneakers: number };
let counter = 0;

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;
const itemId = () => String(1_000_000_000 + Math.floor(Math.random() * 8_000_000_000) + (counter += 1));
const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

async function createProduct(body: Record<string, unknown>, token = admin) {
  const response = await api(server.url, "/api/admin/products", { token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

async function setSetting(key: string, value: string) {
  const response = await api(server.url, "/api/site-settings/admin/settings", {
    method: "PUT",
    token: admin,
    body: { settings: { [key]: value } },
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  rates = await startFakeRates();
  server = await startTestServer({ env: { RATES_URL: rates.primaryUrl, RATES_BACKUP_URL: rates.backupUrl } });
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username: unique("shopper"), email: `${unique("s")}@example.com`, password: "shopper-pass" },
  });
  const login = await apiLogin(server.url, made.body.data.email, "shopper-pass");
  user = login.accessToken;
  userId = login.user.id;
  // an admin without product permissions
  const roles = await api(server.url, "/api/admin/roles", { token: admin });
  const adminRole = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  const plain = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username: unique("plain"), email: `${unique("p")}@example.com`, password: "plain-pass-1", roleIds: [adminRole] },
  });
  editorOfOthers = (await apiLogin(server.url, plain.body.data.email, "plain-pass-1")).accessToken;

  const make = async (name: string, parent_id?: number) =>
    (await api(server.url, "/api/admin/categories", { token: admin, body: { name, parent_id } })).body.data.id as number;
  const shoes = await make("Shoes 鞋");
  categories = { shoes, sneakers: await make("Sneakers 运动鞋", shoes), hoodies: await make("Hoodies 卫衣") };
});

afterAll(async () => {
  await server?.stop();
  await rates?.close();
});

describe("admin products", () => {
  it("creates a product with SKUs (201) and reads it back, public and admin", async () => {
    const id = itemId();
    const product = await createProduct({
      name: "Nike Air Force 1 耐克空军一号",
      description: "Classic white sneakers.",
      price_cny: 299.5,
      category_id: categories.sneakers,
      main_images: "https://img.alicdn.example/a.jpg, https://img.alicdn.example/b.jpg",
      platform: "weidian",
      platform_item_id: id,
      original_url: `https://weidian.com/item.html?itemID=${id}`,
      skus: [
        { sku_name: "EU 42", sku_price: 299.5, sku_stock: 5 },
        { sku_name: "EU 43", sku_price: 309, sku_stock: 0 },
      ],
      is_external: true,
    });
    expect(product).toMatchObject({
      name: "Nike Air Force 1 耐克空军一号",
      price_cny: 299.5,
      category_id: categories.sneakers,
      images: ["https://img.alicdn.example/a.jpg", "https://img.alicdn.example/b.jpg"],
      platform: "weidian",
      platform_item_id: id,
      is_external: false,
      url: `/weidian/${id}`,
    });
    expect(product.skus.map((s: { sku_name: string }) => s.sku_name)).toEqual(["EU 42", "EU 43"]);

    const read = await api(server.url, `/api/products/${product.id}?incrementView=false`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: product.id, title: product.name, itemId: id, source: "weidian", view_count: 0 });
    const byPlatform = await api(server.url, `/api/products/platform/${id}?platform=weidian&incrementView=false`);
    expect(byPlatform.body.data.id).toBe(product.id);
    const adminRead = await api(server.url, `/api/admin/products/${product.id}`, { token: admin });
    expect(adminRead.body.data.skus).toHaveLength(2);
  });

  it("refuses bad input with 400 naming the field, and changes nothing", async () => {
    const before = (await api(server.url, "/api/admin/products?limit=1", { token: admin })).body.totalItems;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "ab" }, "name"],
      [{ name: "x".repeat(256) }, "name"],
      [{ name: "   " }, "name"],
      [{ name: "Valid name", price_cny: -1 }, "price_cny"],
      [{ name: "Valid name", category_id: 999_999 }, "category_id"],
      [{ name: "Valid name", category_id: "abc" }, "category_id"],
      [{ name: "Valid name", original_url: "javascript:alert(1)" }, "original_url"],
      [
        {
          name: "Valid name",
          skus: [
            { sku_name: "Red", sku_price: 1, sku_stock: 1 },
            { sku_name: "red", sku_price: 2, sku_stock: 1 },
          ],
        },
        "skus.1.sku_name",
      ],
      [{ name: "Valid name", platform: "amazon", platform_item_id: "123" }, "platform"],
      [{ name: "Valid name", platform: "taobao" }, "platform_item_id"],
      [{ name: "Valid name", main_images: ["javascript:alert(1)"] }, "main_images.0"],
    ];
    for (const [body, field] of cases) {
      const response = await api(server.url, "/api/admin/products", { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.success).toBe(false);
      expect(fields(response.body), JSON.stringify(body)).toContain(field);
    }
    expect((await api(server.url, "/api/admin/products?limit=1", { token: admin })).body.totalItems).toBe(before);
    // each name rule says its own message, one at a time (docs/product/admin.md 5)
    for (const [name, message] of [
      ["   ", "Product name cannot be empty"],
      ["ab", "Product name must be at least 3 characters"],
      ["x".repeat(256), "Product name must be at most 255 characters"],
    ]) {
      const response = await api(server.url, "/api/admin/products", { token: admin, body: { name } });
      expect(response.body).toEqual({ success: false, message, code: "VALIDATION_ERROR", errors: [{ field: "name", message }] });
    }
  });

  it("answers 409 for a second product of the same marketplace item", async () => {
    const id = itemId();
    await createProduct({ name: "First of its item", platform: "taobao", platform_item_id: id });
    const again = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: "Second of its item", platform: "taobao", platform_item_id: id },
    });
    expect(again.status).toBe(409);
    expect(fields(again.body)).toContain("platform_item_id");
  });

  it("updates only the fields given, replaces SKUs when given, and deletes", async () => {
    const product = await createProduct({
      name: "Editable hoodie",
      price_cny: 100,
      skus: [{ sku_name: "M", sku_price: 100, sku_stock: 3 }],
    });
    const updated = await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { price_cny: 120 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: "Editable hoodie", price_cny: 120 });
    expect(updated.body.data.skus).toHaveLength(1);
    const skus = await api(server.url, `/api/admin/products/${product.id}`, {
      method: "PUT",
      token: admin,
      body: {
        skus: [
          { sku_name: "L", sku_price: 130, sku_stock: 1 },
          { sku_name: "XL", sku_price: 140, sku_stock: 0 },
        ],
      },
    });
    expect(skus.body.data.skus.map((s: { sku_name: string }) => s.sku_name)).toEqual(["L", "XL"]);
    const bad = await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { name: "no" } });
    expect(bad.status).toBe(400);
    expect((await api(server.url, `/api/admin/products/${product.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await api(server.url, `/api/products/${product.id}`)).status).toBe(404);
    expect((await api(server.url, `/api/admin/products/${product.id}`, { method: "DELETE", token: admin })).status).toBe(404);
  });

  it("guards every admin endpoint: 401 without a token, 403 without the permission", async () => {
    const product = await createProduct({ name: "Guarded product" });
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/admin/products"],
      ["POST", "/api/admin/products", { name: "Nope nope" }],
      ["GET", `/api/admin/products/${product.id}`],
      ["PUT", `/api/admin/products/${product.id}`, { name: "Changed name" }],
      ["DELETE", `/api/admin/products/${product.id}`],
      ["POST", "/api/admin/categories", { name: "Nope" }],
      ["PUT", `/api/admin/categories/${categories.shoes}`, { name: "Nope" }],
      ["DELETE", `/api/admin/categories/${categories.hoodies}`],
      ["POST", "/api/admin/categories/batch-sort", { sortData: [{ id: categories.shoes, sort_order: 1 }] }],
      ["PUT", "/api/admin/exchange-rates", { rates: { USD: 7 } }],
      ["POST", "/api/admin/exchange-rates/refresh"],
      ["POST", "/api/products/upload-image"],
    ];
    for (const [method, pathname, body] of calls) {
      const anonymous = await api(server.url, pathname, { method, body });
      expect(anonymous.status, `${method} ${pathname}`).toBe(401);
      // docs/product/admin.md 5: admin calls need a token ('Authentication required for this action.')
      expect(anonymous.body, `${method} ${pathname}`).toMatchObject({
        success: false,
        message: "Authentication required for this action.",
      });
      for (const token of [user, editorOfOthers]) {
        const response = await api(server.url, pathname, { method, body, token });
        expect(response.status, `${method} ${pathname}`).toBe(403);
        expect(response.body).toMatchObject({ success: false, message: "权限不足，需要管理员权限" });
      }
    }
    expect((await api(server.url, `/api/products/${product.id}`)).body.data.name).toBe("Guarded product");
    // the category list is for anyone with back-office access (category management is always in the sidebar)
    expect((await api(server.url, "/api/admin/categories")).body).toMatchObject({
      success: false,
      message: "Authentication required for this action.",
    });
    expect((await api(server.url, "/api/admin/categories", { token: user })).status).toBe(403);
    expect((await api(server.url, "/api/admin/categories", { token: editorOfOthers })).status).toBe(200);
  });
});

describe("QC photos given by address (qc_images)", () => {
  it("publishes the addresses in the product's QC gallery, replaces them on update, and never touches uploaded photos", async () => {
    const product = await createProduct({
      name: unique("Linked QC "),
      price_cny: 20,
      qc_images: "https://img.example/qc-1.jpg, https://img.example/qc-2.jpg",
    });
    const read = await api(server.url, `/api/products/${product.id}?incrementView=false`);
    expect(read.body.data.qc_images).toEqual(["https://img.example/qc-1.jpg", "https://img.example/qc-2.jpg"]);
    expect(read.body.data.qc_image_count).toBe(2);
    const gallery = await api(server.url, `/api/qc/products/${product.id}/qc-images`);
    expect(gallery.body.totalCount).toBe(2);
    expect(JSON.stringify(gallery.body.qc_images)).toContain("https://img.example/qc-2.jpg");
    // the admin read answers them too
    expect((await api(server.url, `/api/admin/products/${product.id}`, { token: admin })).body.data.qc_images).toHaveLength(2);

    // an update with the field replaces the list; one without it leaves it
    const updated = await api(server.url, `/api/admin/products/${product.id}`, {
      method: "PUT",
      token: admin,
      body: { qc_images: ["https://img.example/qc-2.jpg", "https://img.example/qc-3.jpg"] },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.qc_images).toEqual(["https://img.example/qc-2.jpg", "https://img.example/qc-3.jpg"]);
    await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { price_cny: 21 } });
    expect((await api(server.url, `/api/products/${product.id}?incrementView=false`)).body.data.qc_images).toHaveLength(2);

    // in the product page's gallery
    const pageHtml = await (await fetch(`${server.url}${updated.body.data.url}`)).text();
    expect(pageHtml).toContain('src="https://img.example/qc-3.jpg"');
    expect(pageHtml).not.toContain("https://img.example/qc-1.jpg");

    // a bad address names the field, and nothing changes
    const bad = await api(server.url, `/api/admin/products/${product.id}`, {
      method: "PUT",
      token: admin,
      body: { qc_images: ["javascript:alert(1)"] },
    });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).some((field) => field.startsWith("qc_images"))).toBe(true);
    const cleared = await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { qc_images: [] } });
    expect(cleared.body.data.qc_images).toEqual([]);
    expect(cleared.body.data.qc_image_count).toBe(0);
  });
});

describe("public product reads", () => {
  it("answers 400 for ids that are not positive numbers and 404 for unknown ones, always JSON", async () => {
    for (const id of ["abc", "-1", "0", "1.5", "99999999999999999999"]) {
      const response = await api(server.url, `/api/products/${id}`);
      expect(response.status, id).toBe(400);
      expect(response.body.success).toBe(false);
    }
    const missing = await api(server.url, "/api/products/987654");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, message: "Product not found" });
    for (const path of ["/api/products/..%2f..", "/api/products/%2e%2e", "/api/products/..%2f..%2fpackage.json"]) {
      const response = await rawGet(server.port, path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.headers["content-type"], path).toContain("application/json");
    }
  });

  it("counts a view per request, not with incrementView=false, not for crawlers", async () => {
    const product = await createProduct({ name: "Counted product" });
    await api(server.url, `/api/products/${product.id}`);
    await api(server.url, `/api/products/${product.id}`);
    await api(server.url, `/api/products/${product.id}?incrementView=false`);
    for (const agent of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0)",
      "facebookexternalhit/1.1",
    ]) {
      await api(server.url, `/api/products/${product.id}`, { headers: { "User-Agent": agent } });
    }
    const read = await api(server.url, `/api/products/${product.id}?incrementView=false`);
    expect(read.body.data.view_count).toBe(2);
  });

  it("lists products with paging, clamping silly page and limit values", async () => {
    for (let i = 0; i < 3; i++) await createProduct({ name: `Paged hoodie ${i}`, category_id: categories.hoodies });
    const page = await api(server.url, `/api/products?categoryId=${categories.hoodies}&limit=2&page=1`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ success: true, currentPage: 1, limit: 2, totalItems: 3, totalPages: 2, hasNextPage: true });
    expect(page.body.items).toHaveLength(2);
    const silly = await api(server.url, `/api/products?page=-1&limit=100000`);
    expect(silly.status).toBe(200);
    expect(silly.body.currentPage).toBe(1);
    expect(silly.body.limit).toBe(100);
    const past = await api(server.url, `/api/products?categoryId=${categories.hoodies}&limit=2&page=50`);
    expect(past.body.currentPage).toBe(2);
    expect((await api(server.url, "/api/products?categoryId=abc")).status).toBe(400);
  });

  it("the sitemap lists categories and listed products at their canonical addresses", async () => {
    const id = itemId();
    const listed = await createProduct({ name: "Sitemap listed product", platform: "tmall", platform_item_id: id });
    const hidden = await createProduct({ name: "Sitemap hidden product", show_in_listing: false });
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(xml).toContain(`/tmall/${id}</loc>`);
    expect(xml).toContain(`/category/${categories.shoes}</loc>`);
    expect(xml).not.toContain(`/product/${hidden.id}</loc>`);
    expect(listed.url).toBe(`/tmall/${id}`);
  });

  it("category counts are of what the caller's lists show", async () => {
    const category = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: unique("Counted") } })).body.data.id;
    await createProduct({ name: "Listed in the count", category_id: category });
    await createProduct({ name: "Hidden from lists", category_id: category, show_in_listing: false });
    const countOf = async (token?: string) =>
      (await api(server.url, "/api/categories", { token })).body.data.find((c: { id: number }) => c.id === category).product_count;
    expect(await countOf()).toBe(1);
    expect(await countOf(admin)).toBe(2);
  });

  it("two categories of one name sent at the same moment (a double submit, two instances): one is made, the other refused", async () => {
    const name = unique("Twice");
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api(server.url, "/api/admin/categories", { token: admin, body: { name } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const named = (await api(server.url, "/api/categories")).body.data.filter((c: { name: string }) => c.name === name);
    expect(named).toHaveLength(1);
    // and a parent made a child while a child is put under it: one of the two is refused
    const first = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: unique("First") } })).body.data.id;
    const second = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: unique("Second") } })).body.data.id;
    const moves = await Promise.all([
      api(server.url, `/api/admin/categories/${first}`, { token: admin, method: "PUT", body: { parent_id: second } }),
      api(server.url, `/api/admin/categories/${second}`, { token: admin, method: "PUT", body: { parent_id: first } }),
    ]);
    expect(moves.map((move) => move.status).sort()).toEqual([200, 400]);
  });

  it("a parent category's count includes its subcategories' products, as its page and GET /api/products?categoryId list them", async () => {
    const parent = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: unique("Parent") } })).body.data.id;
    const child = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: unique("Child"), parent_id: parent } }))
      .body.data.id;
    await createProduct({ name: "Filed under the parent", category_id: parent });
    await createProduct({ name: "Filed under the child", category_id: child });
    const counts = (await api(server.url, "/api/categories")).body.data as Array<{ id: number; product_count: number }>;
    expect(counts.find((c) => c.id === parent)?.product_count).toBe(2);
    expect(counts.find((c) => c.id === child)?.product_count).toBe(1);
    expect((await api(server.url, `/api/products?categoryId=${parent}`)).body.totalItems).toBe(2);
  });

  it("GET /api/categories answers the categories with parents, order and counts", async () => {
    const response = await api(server.url, "/api/categories");
    expect(response.status).toBe(200);
    const sneakers = response.body.data.find((c: { id: number }) => c.id === categories.sneakers);
    expect(sneakers).toMatchObject({
      name: "Sneakers 运动鞋",
      parent_id: categories.shoes,
      sort_order: 0,
      product_count: expect.any(Number),
    });
  });
});

describe("search", () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    ids = {
      hoodie: (await createProduct({ name: "加绒连帽卫衣 Fleece hoodie grey", price_cny: 89, category_id: categories.hoodies })).id,
      nike: (await createProduct({ name: "耐克 Dunk Low 熊猫配色", price_cny: 459, category_id: categories.sneakers })).id,
      jacket: (
        await createProduct({ name: "冬季外套 padded jacket", description: "Warm and light, filled with duck down", price_cny: 259 })
      ).id,
    };
  });

  const search = (query: string) => api(server.url, `/api/products/search?${query}`);
  const idsOf = (body: { items: Array<{ id: number }> }) => body.items.map((p) => p.id);

  it("finds words of 3+ characters anywhere in the name and description", async () => {
    const hoodie = await search("q=hoodie");
    expect(hoodie.status).toBe(200);
    expect(idsOf(hoodie.body)).toContain(ids.hoodie);
    expect(idsOf((await search(`q=${encodeURIComponent("连帽卫衣")}`)).body)).toContain(ids.hoodie);
    expect(idsOf((await search("q=duck+down")).body)).toEqual([ids.jacket]);
    expect(hoodie.body).toMatchObject({ success: true, currentPage: 1, limit: 8 });
  });

  it("finds Chinese terms of one or two characters (耐克, 外套)", async () => {
    const nike = idsOf((await search(`q=${encodeURIComponent("耐克")}`)).body);
    expect(nike).toContain(ids.nike);
    expect(nike).not.toContain(ids.hoodie);
    expect(idsOf((await search(`q=${encodeURIComponent("外套")}`)).body)).toEqual([ids.jacket]);
    expect(idsOf((await search(`q=${encodeURIComponent("耐克 dunk")}`)).body)).toEqual([ids.nike]);
  });

  it("treats input as words, never as FTS syntax", async () => {
    for (const q of ["' OR 1=1 --", '"', "*", "NEAR(", "title:x", "hoodie OR jacket", "a AND", "(", '卫衣"', "^x", "-hoodie"]) {
      const response = await search(`q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(200);
      expect(response.body.success, q).toBe(true);
    }
    expect(idsOf((await search(`q=${encodeURIComponent("hoodie OR jacket")}`)).body)).toEqual([]);
  });

  it("reads control characters in a term (%00, a pasted tab) as spaces, on the page and in the API", async () => {
    const hoodie = await createProduct({ name: "Controlcheck hoodie", price_cny: 20 });
    for (const q of ["controlcheck%00hoodie", "controlcheck%09hoodie", "%00controlcheck%0B", "a%00b"]) {
      const response = await search(`q=${q}`);
      expect(response.status, q).toBe(200);
      expect(response.body.success, q).toBe(true);
      if (q.includes("controlcheck")) expect(idsOf(response.body), q).toContain(hoodie.id);
      const page = await fetch(`${server.url}/search?q=${q}`);
      expect(page.status, q).toBe(200);
      const html = await page.text();
      expect(html, q).not.toContain("\u0000");
      expect(html, q).not.toContain("Failed to search products.");
    }
  });

  it("requires a term (400), filters by category, sorts and pages", async () => {
    const empty = await search("q=");
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toContain("q");
    expect((await search("")).status).toBe(400);
    const inShoes = await search(`q=${encodeURIComponent("耐克")}&categoryId=${categories.shoes}`);
    expect(idsOf(inShoes.body)).toContain(ids.nike);
    const inHoodies = await search(`q=${encodeURIComponent("耐克")}&categoryId=${categories.hoodies}`);
    expect(idsOf(inHoodies.body)).toEqual([]);
    const all = [ids.hoodie, ids.nike, ids.jacket];
    const cheap = await search(`q=${encodeURIComponent("卫衣 ")}&sortBy=price_asc`);
    expect(cheap.status).toBe(200);
    const byPrice = await api(server.url, `/api/products/search?q=${encodeURIComponent("e")}&sortBy=price_desc&limit=100`);
    const prices = byPrice.body.items.filter((p: { id: number }) => all.includes(p.id)).map((p: { price_cny: number }) => p.price_cny);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const paged = await search(`q=e&limit=1&page=2`);
    expect(paged.body).toMatchObject({ currentPage: 2, limit: 1 });
  });
});

describe("show external products switch", () => {
  it("hides external products from storefront lists but never from a direct link or the admin", async () => {
    const id = itemId();
    const synced = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId: id, title: "Imported 联名外部商品 switchcheck", price: 88, source: "taobao", shopName: "Some shop" },
    });
    expect(synced.status, JSON.stringify(synced.body)).toBe(201);
    const product = synced.body.data;
    expect(product).toMatchObject({ is_external: true, platform: "taobao", url: `/taobao/${id}` });
    const find = async (token?: string) =>
      (await api(server.url, `/api/products/search?q=switchcheck`, { token })).body.items.map((p: { id: number }) => p.id);
    expect(await find()).toEqual([product.id]);
    await setSetting("show_external_products", "false");
    try {
      expect(await find()).toEqual([]);
      expect(await find(user)).toEqual([]);
      expect((await api(server.url, "/api/products?isExternal=true")).body.totalItems).toBe(0);
      // a direct link and a platform lookup still show it; the admin sees it everywhere
      expect((await api(server.url, `/api/products/${product.id}`)).status).toBe(200);
      expect((await api(server.url, `/api/products/platform/${id}?platform=taobao`)).status).toBe(200);
      expect(await find(admin)).toEqual([product.id]);
      expect((await api(server.url, "/api/admin/products?isExternal=true", { token: admin })).body.totalItems).toBeGreaterThan(0);
    } finally {
      await setSetting("show_external_products", "true");
    }
    expect(await find()).toEqual([product.id]);
  });
});

describe("POST /api/products/sync-external", () => {
  it("makes one product per marketplace item, even for 10 parallel calls", async () => {
    const id = itemId();
    const body = {
      itemId: id,
      title: "并发导入 Parallel import",
      price: 10,
      images: ["https://img.alicdn.example/p.jpg"],
      source: "1688",
      skus: [{ sku_name: "One", sku_price: 10, sku_stock: 1 }],
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api(server.url, "/api/products/sync-external", { token: admin, body })),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 201)).toBe(true);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const listed = await api(server.url, `/api/products/platform/${id}?platform=1688&incrementView=false`);
    expect(listed.body.data.skus).toHaveLength(1);
  });

  it("a product editor's sync updates the product; a shopper's changes nothing of it (it is the marketplace's)", async () => {
    const id = itemId();
    await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId: id, title: "Original title", source: "weidian" },
    });
    const overwrite = await api(server.url, "/api/products/sync-external", {
      token: user,
      body: { itemId: id, title: "Vandalised title", source: "weidian", originalUrl: "https://phish.example/weidian" },
    });
    expect(overwrite.status).toBe(200);
    expect(overwrite.body.data.name).toBe("Original title");
    expect(overwrite.body.data.original_url).toBeNull();
    const edited = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId: id, title: "Corrected title", source: "weidian" },
    });
    expect(edited.body.data.name).toBe("Corrected title");
  });

  it("an editor's sync changes only the fields it sends (a hidden listing stays hidden)", async () => {
    const id = itemId();
    const body = {
      itemId: id,
      title: "Synced item",
      price: 20,
      images: ["https://img.example/a.jpg"],
      source: "taobao",
      description: ["第一段", "second"],
      shopName: "Shop A",
      skus: [{ sku_name: "S", sku_price: 20, sku_stock: 3 }],
    };
    const created = await api(server.url, "/api/products/sync-external", { token: admin, body });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      description: "第一段\n\nsecond",
      descriptionItems: ["第一段", "second"],
      isExternalProduct: true,
      showInListing: true,
    });
    await api(server.url, `/api/admin/products/${created.body.data.id}`, { method: "PUT", token: admin, body: { show_in_listing: false } });
    const again = await api(server.url, "/api/products/sync-external", {
      token: admin,
      body: { itemId: id, title: "Synced item v2", price: 25, source: "taobao" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      name: "Synced item v2",
      price_cny: 25,
      images: ["https://img.example/a.jpg"],
      description: "第一段\n\nsecond",
      shop_name: "Shop A",
      show_in_listing: false,
      is_external: true,
    });
    expect(again.body.data.skus.map((sku: { sku_name: string }) => sku.sku_name)).toEqual(["S"]);
  });

  it("needs a login and a valid body", async () => {
    expect((await api(server.url, "/api/products/sync-external", { body: { itemId: "1", title: "x" } })).status).toBe(401);
    const noItem = await api(server.url, "/api/products/sync-external", { token: user, body: { title: "No id" } });
    expect(noItem.status).toBe(400);
    expect(noItem.body.errors).toContainEqual({ field: "itemId", message: "Item ID is required" });
    const twice = await api(server.url, "/api/products/sync-external", {
      token: user,
      body: { itemId: itemId(), title: "Same SKU twice", skus: [{ sku_name: "Red" }, { sku_name: "red" }] },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toContainEqual({ field: "skus.1.sku_name", message: "Each SKU name may appear only once in a product" });
    const script = await api(server.url, "/api/products/sync-external", {
      token: user,
      body: { itemId: itemId(), title: "Bad link", originalUrl: "javascript:alert(1)" },
    });
    expect(fields(script.body)).toEqual(["originalUrl"]);
    const badSource = await api(server.url, "/api/products/sync-external", {
      token: user,
      body: { itemId: "123", title: "Bad source", source: "ebay" },
    });
    expect(fields(badSource.body)).toContain("source");
  });
});

describe("collections", () => {
  it("adds (idempotent), checks, lists and removes; a missing product is a 404", async () => {
    const a = await createProduct({ name: "Collected A", price_cny: 10 });
    const b = await createProduct({ name: "Collected B", price_cny: 5 });
    const add = (productId: unknown) => api(server.url, "/api/users/collections/add", { token: user, body: { productId } });
    expect((await add(a.id)).status).toBe(200);
    expect((await add(a.id)).status).toBe(200);
    expect((await add(b.id)).status).toBe(200);
    expect((await add(987654321)).status).toBe(404);
    expect((await add("abc")).status).toBe(400);
    const check = await api(server.url, `/api/users/collections/check/${a.id}`, { token: user });
    expect(check.body).toMatchObject({ success: true, isCollected: true });
    const list = await api(server.url, "/api/users/collections", { token: user });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { productId: number }) => p.productId)).toEqual([b.id, a.id]);
    expect(list.body.pagination).toEqual({ totalItems: 2, totalPages: 1, currentPage: 1, itemsPerPage: 10 });
    const byPrice = await api(server.url, "/api/users/collections?sortBy=price&sortOrder=asc", { token: user });
    expect(byPrice.body.data.map((p: { productId: number }) => p.productId)).toEqual([b.id, a.id]);
    expect((await api(server.url, `/api/users/collections/remove/${a.id}`, { method: "DELETE", token: user })).status).toBe(200);
    expect((await api(server.url, `/api/users/collections/check/${a.id}`, { token: user })).body.isCollected).toBe(false);
    // removing twice changes nothing
    expect((await api(server.url, `/api/users/collections/remove/${a.id}`, { method: "DELETE", token: user })).status).toBe(200);
    // a product that does not exist is a 404 envelope for every collection call
    for (const [method, pathname] of [
      ["GET", "/api/users/collections/check/987654321"],
      ["DELETE", "/api/users/collections/remove/987654321"],
    ] as const) {
      const missing = await api(server.url, pathname, { method, token: user });
      expect(missing.status, pathname).toBe(404);
      expect(missing.body).toEqual({ success: false, message: "Product not found", code: "NOT_FOUND" });
    }
    expect((await add(undefined)).body).toMatchObject({
      success: false,
      message: "Product ID is required",
      errors: [{ field: "productId", message: "Product ID is required" }],
    });
    // another user's collection is their own
    expect((await api(server.url, "/api/users/collections", { token: admin })).body.data).toEqual([]);
    expect(userId).toBeGreaterThan(0);
  });

  it("answers 401 'Authentication required for this action.' without a login (docs/product/storefront.md 5)", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/users/collections"],
      ["GET", "/api/users/collections/check/1"],
      ["POST", "/api/users/collections/add", { productId: 1 }],
      ["DELETE", "/api/users/collections/remove/1"],
    ] as const) {
      const response = await api(server.url, path, { method, body });
      expect(response.status, path).toBe(401);
      expect(response.body).toMatchObject({ success: false, message: "Authentication required for this action.", code: "AUTH_REQUIRED" });
    }
  });
});

describe("admin categories", () => {
  it("creates, edits (only changes; 'No changes detected.'), sorts and deletes with the spec's rules", async () => {
    // docs/product/admin.md 5: create says '分类名称是必填的', edit 'Category name is required.'
    const missingName = await api(server.url, "/api/admin/categories", { token: admin, body: { name: "  " } });
    expect(missingName.status).toBe(400);
    expect(missingName.body).toMatchObject({
      success: false,
      message: "分类名称是必填的",
      errors: [{ field: "name", message: "分类名称是必填的" }],
    });
    expect(
      (await api(server.url, `/api/admin/categories/${categories.shoes}`, { method: "PUT", token: admin, body: { name: "" } })).body,
    ).toMatchObject({
      success: false,
      message: "Category name is required.",
    });
    const top = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: "Bags 包", sort_order: 5 } })).body.data;
    const child = (await api(server.url, "/api/admin/categories", { token: admin, body: { name: "Backpacks", parent_id: top.id } })).body
      .data;
    // one level only: no parent under a child, and not itself
    expect((await api(server.url, "/api/admin/categories", { token: admin, body: { name: "Too deep", parent_id: child.id } })).status).toBe(
      400,
    );
    expect(
      (await api(server.url, `/api/admin/categories/${top.id}`, { method: "PUT", token: admin, body: { parent_id: top.id } })).status,
    ).toBe(400);
    expect(
      (await api(server.url, `/api/admin/categories/${top.id}`, { method: "PUT", token: admin, body: { parent_id: categories.shoes } }))
        .status,
    ).toBe(400);
    const same = await api(server.url, `/api/admin/categories/${top.id}`, { method: "PUT", token: admin, body: { name: "Bags 包" } });
    expect(same.body).toMatchObject({ success: true, changed: false, message: "No changes detected." });
    const renamed = await api(server.url, `/api/admin/categories/${top.id}`, {
      method: "PUT",
      token: admin,
      body: { name: "Bags and backpacks" },
    });
    expect(renamed.body.data.name).toBe("Bags and backpacks");
    // two categories side by side with one name could not be told apart: refused, whatever the case and spaces
    const twin = await api(server.url, "/api/admin/categories", { token: admin, body: { name: "  bags AND backpacks " } });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({
      success: false,
      message: "A category named “Bags and backpacks” already exists at this level: choose another name",
      errors: [{ field: "name" }],
    });
    const clash = await api(server.url, `/api/admin/categories/${top.id}`, { method: "PUT", token: admin, body: { name: "SHOES 鞋" } });
    expect(clash.status).toBe(409);
    expect((await api(server.url, `/api/admin/categories/${top.id}`, { token: admin })).body.data.name).toBe("Bags and backpacks");
    // the same name under another parent is another category
    const cousin = await api(server.url, "/api/admin/categories", {
      token: admin,
      body: { name: "Backpacks", parent_id: categories.shoes },
    });
    expect(cousin.status).toBe(201);
    expect((await api(server.url, `/api/admin/categories/${cousin.body.data.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    const sorted = await api(server.url, "/api/admin/categories/batch-sort", {
      token: admin,
      body: {
        sortData: [
          { id: top.id, sort_order: 0 },
          { id: child.id, sort_order: 2 },
        ],
      },
    });
    expect(sorted.status).toBe(200);
    const list = (await api(server.url, "/api/categories")).body.data as Array<{ id: number; sort_order: number }>;
    expect(list.findIndex((c) => c.id === top.id)).toBeLessThan(list.findIndex((c) => c.id === child.id));
    expect(list.find((c) => c.id === child.id)?.sort_order).toBe(2);
    // a negative sort value is refused, and nothing changes
    const negative = await api(server.url, "/api/admin/categories/batch-sort", {
      token: admin,
      body: { sortData: [{ id: child.id, sort_order: -3 }] },
    });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0].message).toBe("Sort order must be a whole number of 0 or more");
    expect((await api(server.url, `/api/admin/categories/${child.id}`, { token: admin })).body.data.sort_order).toBe(2);
    expect(
      (await api(server.url, "/api/admin/categories/batch-sort", { token: admin, body: { sortData: [{ id: 999999, sort_order: 1 }] } }))
        .status,
    ).toBe(404);
    // a category with subcategories stays; without, it goes and its products stay uncategorised
    expect((await api(server.url, `/api/admin/categories/${top.id}`, { method: "DELETE", token: admin })).status).toBe(409);
    const product = await createProduct({ name: "Backpack 双肩包", category_id: child.id });
    expect((await api(server.url, `/api/admin/categories/${child.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await api(server.url, `/api/products/${product.id}?incrementView=false`)).body.data.category_id).toBeNull();
    expect((await api(server.url, `/api/admin/categories/${top.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await api(server.url, `/api/admin/categories/${top.id}`, { token: admin })).status).toBe(404);
  });
});

describe("POST /api/products/upload-image", () => {
  it("stores a real image re-encoded (201 data.imageUrl) and refuses anything else", async () => {
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#3a6" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "shoe.png");
    const uploaded = await api(server.url, "/api/products/upload-image", { token: admin, body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data.imageUrl).toMatch(/^\/uploads\/products\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
    expect((await fetch(`${server.url}${uploaded.body.data.imageUrl}`)).headers.get("content-type")).toBe("image/webp");
    // the URL is accepted back as a product image
    await createProduct({ name: "Product with an upload", main_images: [uploaded.body.data.imageUrl] });

    const text = new FormData();
    text.append("image", new Blob(["<svg xmlns='http://www.w3.org/2000/svg'/>"], { type: "image/png" }), "x.png");
    const refused = await api(server.url, "/api/products/upload-image", { token: admin, body: text });
    expect(refused.status).toBe(400);
    expect((await api(server.url, "/api/products/upload-image", { token: user, body: form })).status).toBe(403);
  });
});

describe("exchange rates", () => {
  it("answers the rates in effect: fetched (CNY per unit) from the primary file", async () => {
    const response = await api(server.url, "/api/exchange-rates");
    expect(response.status).toBe(200);
    expect(response.body.data.mode).toBe("automatic");
    // the first read starts the fetch in the background; the next reads see it
    let data = response.body.data;
    for (let i = 0; i < 50 && data.lastUpdated === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      data = (await api(server.url, "/api/exchange-rates")).body.data;
    }
    expect(data.lastUpdated).toEqual(expect.any(String));
    expect(data.rates.USD).toBeCloseTo(1 / 0.14, 4);
    expect(data.rates.CNY).toBe(1);
    expect(Object.keys(data.rates).sort()).toEqual(["AUD", "CAD", "CNY", "EUR", "GBP", "JPY", "KRW", "USD"]);
  });

  it("lists every display currency offered, with its minor units and the fetched rates of the new ones", async () => {
    const response = await api(server.url, "/api/currency/rates");
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.base).toBe("CNY");
    expect(data.currencies.length).toBeGreaterThanOrEqual(20);
    const codes = data.currencies.map((currency: { code: string }) => currency.code);
    for (const code of [
      "CNY",
      "USD",
      "EUR",
      "GBP",
      "JPY",
      "KRW",
      "AUD",
      "CAD",
      "BRL",
      "MXN",
      "PLN",
      "SEK",
      "CHF",
      "NZD",
      "SGD",
      "HKD",
      "TWD",
      "PHP",
    ]) {
      expect(codes).toContain(code);
    }
    const byCode = Object.fromEntries(data.currencies.map((currency: { code: string }) => [currency.code, currency]));
    expect(byCode.JPY.decimals).toBe(0);
    expect(byCode.KRW.decimals).toBe(0);
    expect(byCode.USD.decimals).toBe(2);
    // fetched from the rate file like the spec's eight (units per CNY → CNY per unit)
    expect(byCode.BRL.rate).toBeCloseTo(1 / 0.76, 4);
    expect(data.rates.PHP).toBeCloseTo(1 / 8.1, 4);
    // a currency the file lacks keeps its built-in rate
    expect(byCode.MXN.rate).toBeGreaterThan(0);
  });

  it("falls back to the backup file, then keeps what it has when both fail (one warning line)", async () => {
    rates.set("primary", { status: 500, body: "down" });
    const refreshed = await api(server.url, "/api/admin/exchange-rates/refresh", { method: "POST", token: admin });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.fetched).toBe(true);
    expect(refreshed.body.data.rates.USD).toBeCloseTo(1 / 0.15, 4);
    rates.set("backup", { status: 200, body: "not json" });
    const failed = await api(server.url, "/api/admin/exchange-rates/refresh", { method: "POST", token: admin });
    expect(failed.body.fetched).toBe(false);
    expect(failed.body.data.rates.USD).toBeCloseTo(1 / 0.15, 4);
    await outputCaughtUp(server);
    expect(
      server
        .output()
        .split("\n")
        .filter((line) => line.includes("exchange rates: every source failed")),
    ).toHaveLength(1);
  });

  it("manual rates take precedence until a forced refresh; only positive numbers are kept", async () => {
    const none = await api(server.url, "/api/admin/exchange-rates", {
      method: "PUT",
      token: admin,
      body: { rates: { USD: -1, EUR: "abc" } },
    });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("请输入有效的汇率（正数）");
    const saved = await api(server.url, "/api/admin/exchange-rates", {
      method: "PUT",
      token: admin,
      body: { rates: { USD: 7.1, EUR: "7.9", GBP: 0 } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("手动汇率已保存");
    const now = (await api(server.url, "/api/exchange-rates")).body.data;
    expect(now).toMatchObject({ mode: "manual", rates: { USD: 7.1, EUR: 7.9 } });
    expect(now.rates.GBP).toBeCloseTo(1 / 0.1, 4);
    rates.set("primary", { body: { date: "2026-11-24", cny: { usd: 0.2 } } });
    const refreshed = await api(server.url, "/api/admin/exchange-rates/refresh", { method: "POST", token: admin });
    expect(refreshed.body).toMatchObject({ fetched: true, data: { mode: "automatic" } });
    expect(refreshed.body.data.rates.USD).toBeCloseTo(5, 4);
  });
});

describe("API answers kept by the server's front", () => {
  const read = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
  // answers that show view counts are kept on SQLite only: on PostgreSQL other instances'
  // views move the counts, so such answers are made anew each time (same counts, no "hit")
  const keptWithCounts = () => (databaseUrlOf(server.dataDir) ? null : "hit");

  it("answers a product again from memory with its live view count, counting views by every path", async () => {
    const product = await createProduct({ name: "Kept answer product", platform: "taobao", platform_item_id: itemId(), price_cny: 12 });
    const first = await read(`/api/products/${product.id}`);
    expect(first.headers.get("x-answer-cache")).toBeNull();
    expect((await first.json()).data.view_count).toBe(1);
    const second = await read(`/api/products/${product.id}`);
    expect(second.headers.get("x-answer-cache")).toBe(keptWithCounts());
    expect(second.headers.get("x-product-id")).toBeNull();
    expect(second.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect((await second.json()).data).toMatchObject({ id: product.id, title: "Kept answer product", view_count: 2 });
    // not counted: incrementView=false and crawlers; counted: the product page and the platform lookup
    expect((await (await read(`/api/products/${product.id}?incrementView=false`)).json()).data.view_count).toBe(2);
    await read(`/api/products/${product.id}`, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" });
    await read(product.url);
    await read(`/api/products/platform/${product.platform_item_id}?platform=taobao`);
    const now = await read(`/api/products/${product.id}?incrementView=false`);
    expect(now.headers.get("x-answer-cache")).toBe(keptWithCounts());
    expect((await now.json()).data.view_count).toBe(4);
    // an edit is seen at once
    await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { name: "Kept answer renamed" } });
    const edited = await read(`/api/products/${product.id}?incrementView=false`);
    expect(edited.headers.get("x-answer-cache")).toBeNull();
    expect((await edited.json()).data).toMatchObject({ title: "Kept answer renamed", view_count: 4 });
  });

  it("keeps search answers for visitors only, and never a list ordered by views", async () => {
    const word = unique("keptsearch");
    const shown = await createProduct({ name: `${word} shown`, price_cny: 10 });
    const hidden = await createProduct({ name: `${word} hidden`, price_cny: 20, show_in_listing: false });
    const path = `/api/products/search?q=${word}`;
    const ids = async (response: Response) => ((await response.json()).data as Array<{ id: number }>).map((p) => p.id);
    expect(await ids(await read(path))).toEqual([shown.id]);
    const again = await read(path);
    expect(again.headers.get("x-answer-cache")).toBe(keptWithCounts());
    expect(again.headers.get("x-shared-answer")).toBeNull();
    expect(await ids(again)).toEqual([shown.id]);
    // an admin gets their own answer (hidden products included), never the visitors' one
    const asAdmin = await read(path, { Authorization: `Bearer ${admin}` });
    expect(asAdmin.headers.get("x-answer-cache")).toBeNull();
    expect((await ids(asAdmin)).sort()).toEqual([shown.id, hidden.id].sort());
    // a new product is found at once
    const added = await createProduct({ name: `${word} added`, price_cny: 30 });
    const afterAdd = await read(path);
    expect(afterAdd.headers.get("x-answer-cache")).toBeNull();
    expect((await ids(afterAdd)).sort()).toEqual([shown.id, added.id].sort());
    // ordered by views: every view shows at once
    const popular = `${path}&sortBy=popular`;
    expect(await ids(await read(popular))).toEqual([added.id, shown.id]);
    await read(`/api/products/${shown.id}`);
    const reordered = await read(popular);
    expect(reordered.headers.get("x-answer-cache")).toBeNull();
    expect(await ids(reordered)).toEqual([shown.id, added.id]);
  });

  it("answers like the router for addresses it does not serve itself", async () => {
    expect((await api(server.url, "/api/products/0")).status).toBe(400);
    expect((await api(server.url, "/api/products/abc")).status).toBe(400);
    expect((await api(server.url, "/api/products/999999999")).body).toMatchObject({ success: false, code: "NOT_FOUND" });
    expect((await api(server.url, "/api/products/search")).status).toBe(400);
    const upload = await api(server.url, "/api/products/sync-external");
    expect(upload.status).toBe(405);
  });
});

describe("pages kept for visitors without a session", () => {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  const nonceOf = (html: string) => /nonce="([^"]+)"/.exec(html)?.[1];

  it("serves a product page again from memory with the CSP nonce of its render, counting every view", async () => {
    const id = itemId();
    const product = await createProduct({ name: "Cached page product", platform: "weidian", platform_item_id: id, price_cny: 50 });
    const first = await get(product.url);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(first.headers.get("x-product-id")).toBeNull();
    const firstHtml = await first.text();
    const second = await get(product.url, { "Accept-Encoding": "gzip" });
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("x-product-id")).toBeNull();
    const secondHtml = await second.text();
    expect(secondHtml).toBe(firstHtml);
    expect(secondHtml).toContain("Cached page product");
    // the nonce was drawn when the page was made, after everything in it was fixed; the
    // CSP header that goes with the stored page names that nonce
    const nonce = nonceOf(secondHtml);
    expect(nonce).toBeTruthy();
    expect(second.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
    await get(product.url);
    await get(`${product.url}?incrementView=false`);
    await get(`${product.url}?incrementView=false`);
    await get(product.url, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" });
    const read = await api(server.url, `/api/products/${product.id}?incrementView=false`);
    expect(read.body.data.view_count).toBe(3);
  });

  it("drops stored pages when the catalogue or the settings change", async () => {
    const product = await createProduct({ name: "Before the edit", price_cny: 10 });
    await get(product.url);
    expect((await get(product.url)).headers.get("x-page-cache")).toBe("hit");
    await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { name: "After the edit" } });
    const edited = await get(product.url);
    expect(edited.headers.get("x-page-cache")).toBeNull();
    expect(await edited.text()).toContain("After the edit");
    await get("/");
    await setSetting("site_name", "Renamed Shop");
    try {
      expect(await (await get("/")).text()).toContain("Renamed Shop");
    } finally {
      await setSetting("site_name", "QC Finder");
    }
  });

  it("never serves a stored page to a logged-in user, nor stores one for a currency it was not made for", async () => {
    const product = await createProduct({ name: "Per visitor page", price_cny: 66.4 });
    await get(product.url);
    expect((await get(product.url)).headers.get("x-page-cache")).toBe("hit");
    const euro = await get(product.url, { Cookie: "currency=EUR" });
    expect(euro.headers.get("x-page-cache")).toBeNull();
    expect(await euro.text()).toContain("€");
    const login = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }).toString(),
    });
    const sid = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("sid="))!
      .split(";")[0];
    const loggedIn = await get(product.url, { Cookie: sid });
    expect(loggedIn.headers.get("x-page-cache")).toBeNull();
    expect(await loggedIn.text()).toContain(TEST_ADMIN.username);
  });
});
