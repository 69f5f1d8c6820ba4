/**
 * What shoppers compare sites on (issue 39) over real HTTP: the price history (recorded by
 * an edit, the API's points, the page's SVG section in the reader's language), the SKU
 * picker's `?sku=` (photo and price without JavaScript, links keeping the choice), and
 * prices in every currency's own minor units.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
let counter = 0;
const itemId = () => String(2_000_000_000 + Math.floor(Math.random() * 7_000_000_000) + (counter += 1));

async function createProduct(body: Record<string, unknown>) {
  const response = await api(server.url, "/api/admin/products", { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; url: string };
}

async function page(path: string, cookie = "") {
  const response = await fetch(`${server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: response.status, html: await response.text() };
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
});

afterAll(async () => {
  await server?.stop();
});

describe("price history", () => {
  it("starts with the listed price, records each change an edit makes, oldest first, and answers 404 for no product", async () => {
    const product = await createProduct({ name: "Price history hoodie", price_cny: 100 });
    const first = await api(server.url, `/api/products/${product.id}/price-history`);
    expect(first.status).toBe(200);
    expect(first.body.points).toEqual([{ at: expect.any(String), price: 100 }]);

    for (const price of [120, 120, 95.5]) {
      const updated = await api(server.url, `/api/admin/products/${product.id}`, {
        method: "PUT",
        token: admin,
        body: { price_cny: price },
      });
      expect(updated.status).toBe(200);
    }
    // an edit of another field is no change of price
    await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { name: "Price history hoodie v2" } });
    const after = await api(server.url, `/api/products/${product.id}/price-history`);
    expect(after.body.points.map((point: { price: number }) => point.price)).toEqual([100, 120, 95.5]);
    expect(after.body.data.points).toEqual(after.body.points);
    const times = after.body.points.map((point: { at: string }) => Date.parse(point.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    expect((await api(server.url, "/api/products/999999999/price-history")).status).toBe(404);
    expect((await api(server.url, `/api/products/${product.id}/price-history`, { method: "POST", body: {} })).status).toBe(405);
  });

  it("draws the history on the product page as an inline SVG under 'Price history', in the reader's language, without JavaScript", async () => {
    const product = await createProduct({ name: "Charted sneaker", price_cny: 300 });
    await api(server.url, `/api/admin/products/${product.id}`, { method: "PUT", token: admin, body: { price_cny: 250 } });
    const { html } = await page(product.url, "currency=CNY");
    const section = /<section[^>]*product-page__price-history[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(section).toContain(">Price history</h2>");
    expect(section).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Price since [^"]*lowest ¥250\.00, highest ¥300\.00, now ¥250\.00"/);
    expect(section).toMatch(/<path d="M[\d.]+ [\d.]+H[\d.]+V[\d.]+H[\d.]+"/);
    expect(section).toContain("¥250.00");
    expect((await page(product.url, "lang=zh-CN")).html).toContain(">价格走势</h2>");
    expect((await page(product.url, "lang=de")).html).toContain(">Preisverlauf</h2>");
  });
});

describe("the SKU picker", () => {
  it("shows the chosen SKU's photo and price from ?sku= without JavaScript, and every link keeps a choice", async () => {
    const id = itemId();
    const product = await createProduct({
      name: "Picker jacket",
      price_cny: 100,
      platform: "taobao",
      platform_item_id: id,
      main_images: "https://img.example/jacket-main.jpg",
      skus: [
        { sku_name: "黑色 Black / M", sku_price: 100, sku_stock: 3, sku_thumbnail_url: "https://img.example/jacket-black.jpg" },
        { sku_name: "黑色 Black / L", sku_price: 110, sku_stock: 0, sku_thumbnail_url: "https://img.example/jacket-black.jpg" },
        { sku_name: "白色 White / M", sku_price: 120, sku_stock: 5, sku_thumbnail_url: "https://img.example/jacket-white.jpg" },
        { sku_name: "白色 White / L", sku_price: 130, sku_stock: 2, sku_thumbnail_url: "https://img.example/jacket-white.jpg" },
      ],
    });
    const detail = await api(server.url, `/api/products/${product.id}`);
    const skuIds = detail.body.data.skus.map((sku: { id: number }) => sku.id) as number[];
    expect(skuIds).toHaveLength(4);

    const plain = decode((await page(product.url, "currency=CNY")).html);
    expect(plain).toMatch(/class="product-page__price"><span class="price"><span class="price__main">¥100\.00</);
    expect(plain).toContain('src="https://img.example/jacket-main.jpg"');
    // one group per option, each value a link to the SKU it leads to
    expect(plain).toContain(">Style</span>");
    expect(plain).toContain(">Size</span>");
    for (const skuId of [skuIds[0], skuIds[2]]) expect(plain).toContain(`href="${product.url}?sku=${skuId}"`);

    const chosen = decode((await page(`${product.url}?sku=${skuIds[3]}`, "currency=CNY")).html);
    expect(chosen).toMatch(/class="product-page__price"><span class="price"><span class="price__main">¥130\.00</);
    expect(chosen).toContain("Chosen: 白色 White / L");
    // the chosen SKU's photo leads the gallery
    const main = /class="product-page__main-image"[^>]*>\s*<img src="([^"]+)"/.exec(chosen);
    expect(main?.[1]).toBe("https://img.example/jacket-white.jpg");
    // the page's largest picture is asked for first (its LCP)
    expect(chosen).toMatch(/class="product-page__main-image"[^>]*>\s*<img [^>]*fetchpriority="high"/);
    // its values are the checked ones; "Black" keeps the size L, "M" keeps the colour White
    const checked = [...chosen.matchAll(/<a role="radio" aria-checked="true"[^>]*href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]]);
    expect(checked).toEqual([
      [`${product.url}?sku=${skuIds[3]}`, "白色 White"],
      [`${product.url}?sku=${skuIds[3]}`, "L"],
    ]);
    expect(chosen).toContain(`href="${product.url}?sku=${skuIds[1]}"`);
    expect(chosen).toContain(`href="${product.url}?sku=${skuIds[2]}"`);
    // the link to share keeps the choice; the language and currency forms come back to it
    expect(chosen).toContain(`${product.url}?sku=${skuIds[3]}`);
    expect(chosen).toMatch(new RegExp(`name="returnTo" value="${product.url.replace(/[/]/g, "\\/")}\\?sku=${skuIds[3]}"`));
    // the structured data offers the chosen SKU's price, the preview its photo
    expect(chosen).toContain('"price":"130.00"');
    expect(chosen).toContain('<meta property="og:image" content="https://img.example/jacket-white.jpg"');
    // the page's forms and the way to log in come back to the same choice
    expect(chosen).toContain(`/login?redirectTo=${encodeURIComponent(`${product.url}?sku=${skuIds[3]}`)}`);
    expect(chosen).toMatch(new RegExp(`name="returnTo" value="${product.url.replace(/[/]/g, "\\/")}\\?sku=${skuIds[3]}"`));

    // a SKU of no such product is no choice
    const unknown = decode((await page(`${product.url}?sku=999999999`, "currency=CNY")).html);
    expect(unknown).toMatch(/class="product-page__price"><span class="price"><span class="price__main">¥100\.00</);
    expect(unknown).not.toContain('aria-checked="true"');
  });
});

describe("currencies", () => {
  it("shows yen and won without decimals and offers at least 20 currencies in the header", async () => {
    const product = await createProduct({ name: "Yen priced tee", price_cny: 699 });
    const yen = (await page(product.url, "currency=JPY")).html;
    expect(yen).toMatch(/class="price__main">JP¥[\d,]+</);
    expect(yen).not.toMatch(/class="price__main">JP¥[\d,]+\.\d/);
    const won = (await page(product.url, "currency=KRW")).html;
    expect(won).toMatch(/class="price__main">₩[\d,]+</);
    const real = (await page(product.url, "currency=BRL")).html;
    expect(real).toMatch(/class="price__main">R\$[\d,]+\.\d\d</);
    const picker = /<select name="currency"[\s\S]*?<\/select>/.exec(yen)?.[0] ?? "";
    expect(picker.match(/<option /g)?.length ?? 0).toBeGreaterThanOrEqual(20);
  });
});
