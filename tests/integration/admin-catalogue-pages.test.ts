/**
 * The catalogue back office over plain HTTP (what a browser without JavaScript gets):
 * categories, the product lists, exchange rates and product display. Every loader and
 * action checks the caller on the server; bad input gets its message and changes nothing.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let superToken: string;
let cookies: { super: string; admin: string; regular: string };
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

const page = (path: string, cookie?: string) => getPage(server.url, path, cookie);
const post = (path: string, cookie: string, fields: Record<string, string> | Array<[string, string]>) =>
  postForm(server.url, path, cookie, fields);

async function createUser(roleIds: number[]) {
  const username = unique("cat");
  const response = await api(server.url, "/api/admin/users", {
    token: superToken,
    body: { username, email: `${username}@example.com`, password: "page-pass-1", roleIds },
  });
  expect(response.status).toBe(201);
  return { id: response.body.data.id as number, email: `${username}@example.com` };
}

async function createCategory(body: Record<string, unknown>) {
  const response = await api(server.url, "/api/admin/categories", { token: superToken, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string; sort_order: number; parent_id: number | null };
}

async function categories() {
  return (await api(server.url, "/api/admin/categories", { token: superToken })).body.data as Array<{
    id: number;
    name: string;
    sort_order: number;
    parent_id: number | null;
  }>;
}

async function createProduct(body: Record<string, unknown>) {
  const response = await api(server.url, "/api/admin/products", { token: superToken, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string };
}

async function external(name: string) {
  const itemId = String(5_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
  const response = await api(server.url, "/api/products/sync-external", {
    token: superToken,
    body: { itemId, title: name, price: 10, images: [], source: "taobao", shopName: "Test shop" },
  });
  expect([200, 201]).toContain(response.status);
  return response.body.data as { id: number; name: string };
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const roles = await api(server.url, "/api/admin/roles", { token: superToken });
  const adminRole = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  // an admin without product permissions, and a regular user
  const admin = await createUser([adminRole]);
  const regular = await createUser([]);
  cookies = {
    super: await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password),
    admin: await formLogin(server.url, admin.email, "page-pass-1"),
    regular: await formLogin(server.url, regular.email, "page-pass-1"),
  };
});

afterAll(async () => {
  await server?.stop();
});

const PAGES = [
  "/admin/categories",
  "/admin/categories/new",
  "/admin/products",
  "/admin/external-products",
  "/admin/currency-settings",
  "/admin/product-display-settings",
];

describe("who sees the catalogue back office", () => {
  it("sends visitors to log in, refuses regular users, and keeps system settings to the super admin", async () => {
    for (const path of PAGES) {
      const visitor = await page(path);
      expect(visitor.status, path).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect((await page(path, cookies.regular)).status, path).toBe(403);
      expect((await page(path, cookies.super)).status, path).toBe(200);
    }
    // an admin without product permissions sees the lists, not the forms or the system settings
    expect((await page("/admin/categories", cookies.admin)).status).toBe(200);
    expect((await page("/admin/products", cookies.admin)).status).toBe(200);
    for (const path of ["/admin/categories/new", "/admin/currency-settings", "/admin/product-display-settings"]) {
      expect((await page(path, cookies.admin)).status, path).toBe(403);
    }
    const dashboard = await (await page("/admin", cookies.super)).text();
    for (const label of ["Local products", "Total categories", "External products", "Exchange rates", "Product display"])
      expect(dashboard).toContain(label);
  });

  it("refuses forged posts from an admin without the permission, changing nothing", async () => {
    const category = await createCategory({ name: unique("Forged ") });
    const attempts: Array<[string, Record<string, string>]> = [
      ["/admin/categories?index", { intent: "create", name: "Should not exist" }],
      ["/admin/categories?index", { intent: "sort", id: String(category.id), sort_order: "5" }],
      ["/admin/categories?index", { intent: "delete", categoryId: String(category.id) }],
      [`/admin/categories/${category.id}/edit`, { name: "Renamed" }],
      ["/admin/currency-settings", { intent: "save", USD: "9" }],
      ["/admin/product-display-settings", { show_external_products: "false" }],
    ];
    for (const [path, fields] of attempts) expect((await post(path, cookies.admin, fields)).status, path).toBe(403);
    const after = (await categories()).find((c) => c.id === category.id);
    expect(after).toMatchObject({ name: category.name, sort_order: 0 });
    expect((await categories()).some((c) => c.name === "Should not exist")).toBe(false);
    expect((await api(server.url, "/api/exchange-rates")).body.data.mode).toBe("automatic");
  });
});

describe("categories", () => {
  it("creates one, refusing an empty name ('分类名称是必填的') and a negative sort value", async () => {
    const empty = await post("/admin/categories?index", cookies.super, { intent: "create", name: "   " });
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain("分类名称是必填的");
    const name = unique("Jackets ");
    const negative = await post("/admin/categories?index", cookies.super, { intent: "create", name, sort_order: "-3" });
    expect(await negative.text()).toContain("Sort order must be a whole number of 0 or more");
    expect((await categories()).some((c) => c.name === name)).toBe(false);
    const created = await post("/admin/categories?index", cookies.super, { intent: "create", name, sort_order: "4" });
    expect(await toastAfter(server.url, created, cookies.super)).toContain(`Category created: ${name}`);
    expect((await categories()).find((c) => c.name === name)).toMatchObject({ sort_order: 4, parent_id: null });
    // the page of its own
    const other = unique("Coats ");
    const viaPage = await post("/admin/categories/new", cookies.super, { name: other });
    expect(viaPage.status).toBe(302);
    expect((await categories()).some((c) => c.name === other)).toBe(true);
  });

  it("edits one: 'No changes detected.', never its own parent, only top-level parents offered", async () => {
    const top = await createCategory({ name: unique("Top ") });
    const child = await createCategory({ name: unique("Child "), parent_id: top.id });
    const form = await (await page(`/admin/categories/${child.id}/edit`, cookies.super)).text();
    expect(form).toContain(`value="${top.id}"`);
    expect(form).not.toContain(`<option value="${child.id}"`);
    const same = await post(`/admin/categories/${child.id}/edit`, cookies.super, {
      name: child.name,
      parent_id: String(top.id),
      sort_order: "0",
    });
    expect(await same.text()).toContain("No changes detected.");
    const ownParent = await post(`/admin/categories/${top.id}/edit`, cookies.super, { name: top.name, parent_id: String(top.id) });
    expect(ownParent.status).toBe(200);
    expect(await ownParent.text()).toContain("A category can only be placed under a top-level category other than itself");
    const emptyName = await post(`/admin/categories/${top.id}/edit`, cookies.super, { name: "" });
    expect(await emptyName.text()).toContain("Category name is required.");
    const renamed = await post(`/admin/categories/${child.id}/edit`, cookies.super, {
      name: `${child.name} renamed`,
      parent_id: "",
      sort_order: "2",
    });
    expect(renamed.status).toBe(302);
    expect((await categories()).find((c) => c.id === child.id)).toMatchObject({
      name: `${child.name} renamed`,
      parent_id: null,
      sort_order: 2,
    });
    expect((await page("/admin/categories/abc/edit", cookies.super)).status).toBe(404);
    expect((await page("/admin/categories/99999999/edit", cookies.super)).status).toBe(404);
  });

  it("moves one up and down and sets its sort value inline", async () => {
    const a = await createCategory({ name: unique("Order A "), sort_order: 900 });
    const b = await createCategory({ name: unique("Order B "), sort_order: 901 });
    const position = async (id: number) => (await categories()).findIndex((c) => c.id === id);
    expect(await position(a.id)).toBeLessThan(await position(b.id));
    expect((await post("/admin/categories?index", cookies.super, { intent: "up", categoryId: String(b.id) })).status).toBe(302);
    expect(await position(b.id)).toBeLessThan(await position(a.id));
    await post("/admin/categories?index", cookies.super, { intent: "down", categoryId: String(b.id) });
    expect(await position(a.id)).toBeLessThan(await position(b.id));
    const sorted = await post("/admin/categories?index", cookies.super, { intent: "sort", id: String(a.id), sort_order: "950" });
    expect(await toastAfter(server.url, sorted, cookies.super)).toContain("Sort order saved");
    expect((await categories()).find((c) => c.id === a.id)?.sort_order).toBe(950);
    const bad = await post("/admin/categories?index", cookies.super, { intent: "sort", id: String(a.id), sort_order: "-1" });
    expect(await toastAfter(server.url, bad, cookies.super)).toContain("Sort order must be a whole number of 0 or more");
    expect((await categories()).find((c) => c.id === a.id)?.sort_order).toBe(950);
  });

  it("deletes one after the confirmation step, not while it has subcategories", async () => {
    const parent = await createCategory({ name: unique("Parent ") });
    await createCategory({ name: unique("Sub "), parent_id: parent.id });
    const dialog = await (await page(`/admin/categories?modal=delete&categoryId=${parent.id}`, cookies.super)).text();
    expect(dialog).toContain("move or delete them first");
    const refused = await post("/admin/categories?index", cookies.super, { intent: "delete", categoryId: String(parent.id) });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("Failed to delete the category");
    const lone = await createCategory({ name: unique("Lone ") });
    const deleted = await post("/admin/categories?index", cookies.super, { intent: "delete", categoryId: String(lone.id) });
    expect(await toastAfter(server.url, deleted, cookies.super)).toContain("Category deleted");
    expect((await categories()).some((c) => c.id === lone.id)).toBe(false);
  });
});

describe("product lists", () => {
  it("lists local and external products apart, searches and pages", async () => {
    const word = unique("listed");
    const local = await createProduct({ name: `${word} local product`, price_cny: 12 });
    const imported = await external(`${word} imported product`);
    const localPage = await (await page(`/admin/products?q=${word}`, cookies.super)).text();
    expect(localPage).toContain(local.name);
    expect(localPage).not.toContain(imported.name);
    const externalPage = await (await page(`/admin/external-products?q=${word}`, cookies.super)).text();
    expect(externalPage).toContain(imported.name);
    expect(externalPage).not.toContain(local.name);
    // page sizes: 10/20/50/100, defaults 10 (local) and 20 (external); anything else falls back
    expect(localPage).toMatch(/<option value="10" selected="">/);
    expect(externalPage).toMatch(/<option value="20" selected="">/);
    expect(await (await page("/admin/products?limit=7", cookies.super)).text()).toMatch(/<option value="10" selected="">/);
  });

  it("bulk deletes after a confirmation, and asks to choose first ('请先选择要删除的商品')", async () => {
    const none = await post("/admin/external-products", cookies.super, { intent: "bulk-confirm" });
    expect(none.status).toBe(200);
    expect(await none.text()).toContain("请先选择要删除的商品");
    const one = await external(unique("Bulk one "));
    const two = await external(unique("Bulk two "));
    const confirm = await post("/admin/external-products", cookies.super, [
      ["intent", "bulk-confirm"],
      ["ids", String(one.id)],
      ["ids", String(two.id)],
    ]);
    const confirmation = await confirm.text();
    expect(confirmation).toContain(one.name);
    expect(confirmation).toContain("Delete 2 products");
    // nothing is deleted by the confirmation step
    expect((await api(server.url, `/api/products/${one.id}?incrementView=false`)).status).toBe(200);
    const done = await post("/admin/external-products", cookies.super, [
      ["intent", "bulk-delete"],
      ["ids", String(one.id)],
      ["ids", String(two.id)],
    ]);
    expect(await toastAfter(server.url, done, cookies.super)).toContain("Deleted 2 products");
    expect((await api(server.url, `/api/products/${one.id}`)).status).toBe(404);
    expect((await api(server.url, `/api/products/${two.id}`)).status).toBe(404);
  });

  it("deletes one product from its dialog; an admin without product.delete cannot", async () => {
    const product = await createProduct({ name: unique("Single delete ") });
    expect(await (await page(`/admin/products?modal=delete&productId=${product.id}`, cookies.super)).text()).toContain("Delete product");
    expect((await post("/admin/products?index", cookies.admin, { intent: "delete", productId: String(product.id) })).status).toBe(403);
    expect((await post("/admin/products?index", cookies.admin, { intent: "bulk-delete", ids: String(product.id) })).status).toBe(403);
    const deleted = await post("/admin/products?index", cookies.super, { intent: "delete", productId: String(product.id) });
    expect(await toastAfter(server.url, deleted, cookies.super)).toContain("Product deleted");
    expect((await api(server.url, `/api/products/${product.id}`)).status).toBe(404);
  });

  it("each list deletes only its own kind: a forged post naming the other kind's product changes nothing", async () => {
    const local = await createProduct({ name: unique("Local kept ") });
    const imported = await external(unique("External kept "));
    const single = await post("/admin/products?index", cookies.super, { intent: "delete", productId: String(imported.id) });
    expect(await single.text()).toContain("Product not found");
    const fromExternal = await post("/admin/external-products", cookies.super, { intent: "delete", productId: String(local.id) });
    expect(await fromExternal.text()).toContain("Failed to delete the product: Product not found");
    const confirm = await post("/admin/products?index", cookies.super, { intent: "bulk-confirm", ids: String(imported.id) });
    expect(await confirm.text()).toContain("Select the products to delete first.");
    // the spec's words for a Chinese reader
    const chinese = await post("/admin/products?index", `${cookies.super}; lang=zh-CN`, {
      intent: "bulk-confirm",
      ids: String(imported.id),
    });
    expect(await chinese.text()).toContain("请先选择要删除的商品");
    const bulk = await post("/admin/external-products", cookies.super, { intent: "bulk-delete", ids: String(local.id) });
    expect(await toastAfter(server.url, bulk, cookies.super)).toContain("Bulk delete failed: Product not found");
    expect((await api(server.url, `/api/products/${local.id}?incrementView=false`)).status).toBe(200);
    expect((await api(server.url, `/api/products/${imported.id}?incrementView=false`)).status).toBe(200);
  });
});

describe("exchange rates and product display", () => {
  it("saves manual rates, refuses ones that are not positive numbers, and goes back to automatic", async () => {
    const invalid = await post("/admin/currency-settings", cookies.super, {
      intent: "save",
      USD: "-1",
      EUR: "abc",
      GBP: "0",
      JPY: "",
      KRW: "",
      AUD: "",
      CAD: "",
    });
    expect(invalid.status).toBe(200);
    expect(await invalid.text()).toContain("Enter a valid exchange rate (a positive number).");
    expect((await api(server.url, "/api/exchange-rates")).body.data.mode).toBe("automatic");
    const saved = await post("/admin/currency-settings", cookies.super, {
      intent: "save",
      USD: "7.1234",
      EUR: "8",
      GBP: "",
      JPY: "",
      KRW: "",
      AUD: "",
      CAD: "",
    });
    expect(await toastAfter(server.url, saved, cookies.super)).toContain("Manual exchange rates saved.");
    const rates = (await api(server.url, "/api/exchange-rates")).body.data;
    expect(rates).toMatchObject({ mode: "manual", rates: { USD: 7.1234, EUR: 8 } });
    const pageHtml = await (await page("/admin/currency-settings", cookies.super)).text();
    expect(pageHtml).toContain("Manual");
    expect(pageHtml).toContain('step="0.0001"');
    const back = await post("/admin/currency-settings", cookies.super, { intent: "automatic" });
    expect(back.status).toBe(302);
    expect((await api(server.url, "/api/exchange-rates")).body.data.mode).toBe("automatic");
  });

  it("switches external products off and on for the storefront", async () => {
    const word = unique("switched");
    const imported = await external(`${word} external`);
    const search = async () =>
      ((await api(server.url, `/api/products/search?q=${word}`)).body.data as Array<{ id: number }>).map((p) => p.id);
    expect(await search()).toEqual([imported.id]);
    const off = await post("/admin/product-display-settings", cookies.super, { show_external_products: "false" });
    expect(await toastAfter(server.url, off, cookies.super)).toContain("External product display setting saved");
    try {
      expect(await search()).toEqual([]);
      // a direct link still shows it
      expect((await api(server.url, `/api/products/${imported.id}`)).status).toBe(200);
    } finally {
      await postForm(server.url, "/admin/product-display-settings", cookies.super, [
        ["show_external_products", "false"],
        ["show_external_products", "true"],
      ]);
    }
    expect(await search()).toEqual([imported.id]);
  });
});

describe("the product form", () => {
  const fields = (values: Record<string, string>, skus: Array<Record<string, string>> = []): Array<[string, string]> => [
    ...Object.entries(values),
    ...skus.flatMap((sku, index) => Object.entries(sku).map(([key, value]) => [`skus[${index}].${key}`, value] as [string, string])),
  ];
  const multipart = (cookie: string, path: string, form: FormData) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.url, "Accept-Language": "en" },
      body: form,
      redirect: "manual",
    });
  const productsNamed = async (name: string) =>
    (
      (await api(server.url, `/api/admin/products?q=${encodeURIComponent(name)}&limit=50`, { token: superToken })).body.items as Array<{
        id: number;
        name: string;
      }>
    ).filter((p) => p.name === name);

  it("is for product.create and product.edit holders; a non-numeric id is the invalid-id page", async () => {
    const product = await createProduct({ name: unique("Guarded ") });
    expect((await page("/admin/products/new", cookies.admin)).status).toBe(403);
    expect((await page(`/admin/products/${product.id}/edit`, cookies.admin)).status).toBe(403);
    expect((await post("/admin/products/new", cookies.admin, { name: "Forged product" })).status).toBe(403);
    expect((await post(`/admin/products/${product.id}/edit`, cookies.admin, { name: "Forged edit" })).status).toBe(403);
    expect((await productsNamed("Forged product")).length).toBe(0);
    const invalid = await page("/admin/products/abc/edit", cookies.super);
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain("Invalid product id");
    expect((await page("/admin/products/99999999/edit", cookies.super)).status).toBe(404);
  });

  it("says what is wrong beside each field, keeps what was typed, and saves nothing", async () => {
    const response = await post(
      "/admin/products/new",
      cookies.super,
      fields({ name: "ab", price_cny: "-1", original_url: "javascript:alert(1)", description: "Kept description" }, [
        { sku_name: "Same", sku_price: "1", sku_stock: "1" },
        { sku_name: "same", sku_price: "1", sku_stock: "1" },
      ]),
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const message of [
      "Please fix the errors in the form.",
      "Product name must be at least 3 characters",
      "Price must be a number of 0 or more",
      "The original URL must be an http or https address",
      "Each SKU name may appear only once in a product",
    ]) {
      expect(html).toContain(message);
    }
    expect(html).toContain("Kept description");
    expect(html).toContain('value="ab"');
    expect((await productsNamed("ab")).length).toBe(0);
    // 10,000 SKU rows
    const many = await post(
      "/admin/products/new",
      cookies.super,
      fields(
        { name: unique("Too many SKUs ") },
        Array.from({ length: 10_000 }, (_, i) => ({ sku_name: `S${i}`, sku_price: "1", sku_stock: "1" })),
      ),
    );
    expect(many.status).toBe(200);
    expect(await many.text()).toContain("At most 200 SKUs");
  });

  it("creates a product with SKUs, applies the bulk tools, and names a duplicate marketplace item", async () => {
    const name = unique("Form product ");
    const itemId = String(7_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    const skus = Array.from({ length: 6 }, (_, i) => ({ sku_name: `Size ${i}`, sku_price: String(i), sku_stock: "0" }));
    // the bulk tools: every row gets the product price and 100 in stock, nothing saved
    const bulk = await post("/admin/products/new", cookies.super, [...fields({ name, price_cny: "59.5", bulk: "apply" }, skus)]);
    const bulkHtml = await bulk.text();
    expect(bulkHtml.match(/value="59.5"/g)?.length).toBe(7);
    expect(bulkHtml.match(/value="100"/g)?.length).toBe(6);
    expect((await productsNamed(name)).length).toBe(0);

    const created = await post(
      "/admin/products/new",
      cookies.super,
      fields(
        {
          name,
          price_cny: "59.5",
          platform: "weidian",
          platform_item_id: itemId,
          main_images: " https://img.example/a.jpg , ,https://img.example/b.jpg ",
        },
        skus.slice(0, 3),
      ),
    );
    expect(await toastAfter(server.url, created, cookies.super)).toContain(`Product created: ${name}`);
    const [saved] = await productsNamed(name);
    const detail = (await api(server.url, `/api/products/${saved.id}?incrementView=false`)).body.data;
    expect(detail).toMatchObject({
      price: 59.5,
      platform: "weidian",
      itemId,
      images: ["https://img.example/a.jpg", "https://img.example/b.jpg"],
      is_external: false,
    });
    expect(detail.skus.map((sku: { sku_name: string }) => sku.sku_name)).toEqual(["Size 0", "Size 1", "Size 2"]);

    const duplicate = await post(
      "/admin/products/new",
      cookies.super,
      fields({ name: `${name} again`, platform: "weidian", platform_item_id: itemId }),
    );
    expect(duplicate.status).toBe(200);
    expect(await duplicate.text()).toContain(`This product already exists: Weidian item ${itemId}`);
    expect((await productsNamed(`${name} again`)).length).toBe(0);
  });

  it("edits a product: one SKU changed, one added, one removed; no rows left means no SKUs", async () => {
    const product = await createProduct({
      name: unique("Editable "),
      price_cny: 10,
      skus: [
        { sku_name: "A", sku_price: 1, sku_stock: 1 },
        { sku_name: "B", sku_price: 2, sku_stock: 2 },
      ],
    });
    const before = (await api(server.url, `/api/products/${product.id}?incrementView=false`)).body.data.skus as Array<{
      id: number;
      sku_name: string;
    }>;
    const form = await (await page(`/admin/products/${product.id}/edit`, cookies.super)).text();
    expect(form).toContain(`value="${product.name}"`);
    const saved = await post(
      `/admin/products/${product.id}/edit`,
      cookies.super,
      fields({ name: product.name, price_cny: "10" }, [
        { id: String(before[0].id), sku_name: "A", sku_price: "1.5", sku_stock: "9" },
        { sku_name: "C", sku_price: "3", sku_stock: "3" },
      ]),
    );
    expect(await toastAfter(server.url, saved, cookies.super)).toContain("Product updated");
    const after = (await api(server.url, `/api/products/${product.id}?incrementView=false`)).body.data.skus as Array<{
      sku_name: string;
      sku_price: number;
      sku_stock: number;
    }>;
    expect(after.map((sku) => [sku.sku_name, sku.sku_price, sku.sku_stock])).toEqual([
      ["A", 1.5, 9],
      ["C", 3, 3],
    ]);
    await post(`/admin/products/${product.id}/edit`, cookies.super, fields({ name: product.name }));
    expect((await api(server.url, `/api/products/${product.id}?incrementView=false`)).body.data.skus).toEqual([]);
  });

  it("uploads several images at once, naming each one that fails, and saves only when all are stored", async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#36c" } })
      .png()
      .toBuffer();
    const name = unique("Uploaded ");
    const form = new FormData();
    form.set("name", name);
    form.append("upload", new Blob([png], { type: "image/png" }), "front.png");
    form.append("upload", new Blob(["not an image"], { type: "image/png" }), "notes.png");
    const partly = await multipart(cookies.super, "/admin/products/new", form);
    expect(partly.status).toBe(200);
    const html = await partly.text();
    expect(html).toContain("1/2 images uploaded");
    expect(html).toContain("notes.png: The file is not a JPG, PNG, WEBP or GIF image");
    expect((await productsNamed(name)).length).toBe(0);
    // the stored one is in the images field now: saving again keeps it
    const stored = /\/uploads\/products\/[\w/-]+\.webp/.exec(html)?.[0];
    expect(stored).toBeDefined();
    const again = new FormData();
    again.set("name", name);
    again.set("main_images", stored!);
    again.append("upload", new Blob([png], { type: "image/png" }), "back.png");
    const created = await multipart(cookies.super, "/admin/products/new", again);
    expect(created.status).toBe(302);
    const [saved] = await productsNamed(name);
    const images = (await api(server.url, `/api/products/${saved.id}?incrementView=false`)).body.data.images as string[];
    expect(images).toHaveLength(2);
    expect(images[0]).toBe(stored);
    // 20 MB: refused by name, nothing saved
    const big = new FormData();
    big.set("name", unique("Too big "));
    big.append("upload", new Blob([Buffer.alloc(20 * 1024 * 1024, 1)], { type: "image/png" }), "huge.png");
    const refused = await multipart(cookies.super, "/admin/products/new", big);
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("huge.png: Image size cannot exceed 10MB");
    expect((await productsNamed(String(big.get("name")))).length).toBe(0);
  });
});
