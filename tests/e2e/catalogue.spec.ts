/**
 * The storefront catalogue: search, product pages (canonical addresses, 404s), the
 * collection, and the display currency. Runs with JavaScript on and off.
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { loginViaForm } from "./auth-helpers";
import { expect, test, withDatabase } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

type TestProduct = { id: number; name: string; token: string; itemId: string; path: string };

/** A word no other product has (searchable: letters only, 8 of them). */
function token(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

/**
 * A Weidian product (or a local one without a marketplace item) with two SKUs, made
 * through the admin API, or straight in the database when that API is not there.
 */
async function createProduct(
  request: APIRequestContext,
  testInfo: TestInfo,
  options: { platform?: boolean; word?: string; price?: number; categoryId?: number; token?: string } = {},
): Promise<TestProduct> {
  const word = options.word ?? token();
  const price = options.price ?? 100;
  const name = `Canvas tote ${word} ${price} ${testInfo.project.name}`;
  const itemId = String(Math.floor(1e11 + Math.random() * 9e11));
  const withPlatform = options.platform ?? true;
  const headers = { Authorization: `Bearer ${options.token ?? (await adminToken(request))}` };
  const response = await request.post("/api/admin/products", {
    headers,
    data: {
      name,
      price_cny: price,
      description: "Heavy canvas, two handles.\n\nShips in a week.",
      ...(withPlatform
        ? { platform: "weidian", platform_item_id: itemId, original_url: `https://weidian.com/item.html?itemID=${itemId}` }
        : {}),
      ...(options.categoryId ? { category_id: options.categoryId } : {}),
      main_images: [],
      skus: [
        { sku_name: "Black", sku_price: price, sku_stock: 5 },
        { sku_name: "White", sku_price: price + 10, sku_stock: 0 },
      ],
    },
  });
  let id: number;
  if (response.status() === 201) {
    id = (await response.json()).data.id as number;
  } else {
    expect(response.status(), await response.text()).toBe(404);
    id = withDatabase(
      (db) =>
        db
          .prepare("INSERT INTO products (name, price_fen, platform, platform_item_id, category_id) VALUES (?,?,?,?,?)")
          .run(name, price * 100, withPlatform ? "weidian" : null, withPlatform ? itemId : null, options.categoryId ?? null)
          .lastInsertRowid as number,
    );
  }
  return { id, name, token: word, itemId, path: withPlatform ? `/weidian/${itemId}` : `/product/${id}` };
}

async function createCategory(
  request: APIRequestContext,
  token: string,
  body: { name: string; description?: string; parent_id?: number },
): Promise<number> {
  const response = await request.post("/api/admin/categories", { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as number;
}

async function chooseCurrency(page: Page, testInfo: TestInfo, code: string) {
  const url = page.url();
  await page.getByLabel("Currency").selectOption(code);
  // without JavaScript the "Set" button sends the form; with it, the change does
  if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Set" }).click();
  else await expect(page.getByRole("button", { name: "Set" })).toBeHidden();
  await expect(page.getByLabel("Currency")).toHaveValue(code);
  expect(page.url()).toBe(url);
}

test.describe("catalogue", () => {
  test("on a 360 × 640 phone the product's name and price are in the first screen, above the pictures", async ({
    page,
    request,
  }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto(product.path);
    const title = await page.getByRole("heading", { level: 1, name: product.name }).boundingBox();
    const price = await page.locator(".product-page__price").boundingBox();
    const gallery = await page.locator(".product-page__gallery").boundingBox();
    expect(title!.y + title!.height).toBeLessThanOrEqual(640);
    expect(price!.y + price!.height).toBeLessThanOrEqual(640);
    expect(price!.y).toBeLessThan(gallery!.y);
    // at 1280 the pictures stay on the left, the name beside them
    await page.setViewportSize({ width: 1280, height: 800 });
    const wideTitle = await page.getByRole("heading", { level: 1, name: product.name }).boundingBox();
    const wideGallery = await page.locator(".product-page__gallery").boundingBox();
    expect(wideTitle!.x).toBeGreaterThan(wideGallery!.x + wideGallery!.width);
    expect(wideTitle!.y).toBeLessThan(wideGallery!.y + 50);
  });

  test("search, open the product, collect it, see it in the collection and remove it", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    const user = await createUserViaApi(request, uniqueName(testInfo, "collector"));
    await loginViaForm(page, user.username, user.password);

    // the header search finds it by a word of its name
    const search = page.getByRole("search").first();
    await search.getByRole("searchbox").fill(product.token);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Results for “${product.token}”`);
    await expect(page.getByText("1 product found")).toBeVisible();
    await page.getByRole("link", { name: product.name }).click();

    // the product page at its canonical address
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
    await expect(page.getByRole("row").filter({ hasText: "Black" })).toContainText("5");
    await expect(page.getByText("Ships in a week.")).toBeVisible();
    await expect(page.locator("#qc-gallery")).toContainText("No QC photos available.");

    await page.getByRole("button", { name: "Collect", exact: true }).click();
    await expect(toast(page, "Added to your collection")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await expect(page.getByRole("button", { name: "Remove from collection" })).toBeVisible();

    await page.getByRole("link", { name: "your collection" }).click();
    await expect(page).toHaveURL(/\/collections$/);
    await expect(page.getByRole("heading", { name: "My collection" })).toBeVisible();
    await expect(page.getByRole("link", { name: product.name })).toBeVisible();
    await page.getByRole("button", { name: `Remove ${product.name} from collection` }).click();
    await expect(toast(page, "Removed from your collection")).toBeVisible();
    await expect(page.getByText("Your collection is empty.")).toBeVisible();
    await expect(page.getByRole("link", { name: product.name })).toHaveCount(0);
  });

  test("a visitor who wants to collect logs in and comes back to the product", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    const user = await createUserViaApi(request, uniqueName(testInfo, "visitor"));
    await page.goto(product.path);
    await expect(page.getByRole("button", { name: "Collect", exact: true })).toHaveCount(0);
    await expect(page.getByText("Log in or register to collect")).toBeVisible();
    await page.locator(".collect-box").getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(product.path)}`);
    await page.getByLabel("Email or username").fill(user.username);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await page.getByRole("button", { name: "Collect", exact: true }).click();
    await expect(toast(page, "Added to your collection")).toBeVisible();

    // the collection page itself sends visitors to log in and back
    await page.context().clearCookies();
    await page.goto("/collections");
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent("/collections")}`);
  });

  test("the chosen currency is kept from page to page", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await page.goto(product.path);
    const price = page.locator(".product-page__price");
    await expect(price).toContainText("$");
    await expect(price).toContainText("¥100.00");

    await chooseCurrency(page, testInfo, "EUR");
    await expect(price).toContainText("€");
    await expect(price).toContainText("¥100.00");
    expect((await page.context().cookies()).find((cookie) => cookie.name === "currency")?.value).toBe("EUR");

    await page.goto(`/search?q=${product.token}`);
    await expect(page.getByLabel("Currency")).toHaveValue("EUR");
    await expect(page.locator(".product-card").filter({ hasText: product.name }).locator(".price")).toContainText("€");

    await chooseCurrency(page, testInfo, "CNY");
    await expect(page.locator(".product-card").filter({ hasText: product.name }).locator(".price")).toHaveText("¥100.00");
  });

  test("/product/:id answers a 301 to the platform address, which has the canonical link and product data", async ({
    page,
    request,
  }, testInfo) => {
    const product = await createProduct(request, testInfo);
    const redirect = await request.get(`/product/${product.id}?ref=e2e`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(301);
    expect(redirect.headers().location).toBe(`${product.path}?ref=e2e`);

    await page.goto(`/product/${product.id}`);
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    const base = new URL(page.url()).origin;
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${base}${product.path}`);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "product");
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${base}${product.path}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({
      "@type": "Product",
      name: product.name,
      sku: product.itemId,
      offers: { priceCurrency: "CNY", price: "100.00" },
    });
    await expect(page.getByRole("link", { name: "View on Weidian" })).toHaveAttribute("rel", "nofollow noopener noreferrer");

    // the view was counted once: on the canonical address, not before the redirect (views
    // are written within a second, in one transaction)
    await expect
      .poll(() =>
        withDatabase(
          (db) => (db.prepare("SELECT view_count FROM products WHERE id = ?").get(product.id) as { view_count: number }).view_count,
        ),
      )
      .toBe(1);

    // a product without a marketplace item stays at /product/:id
    const local = await createProduct(request, testInfo, { platform: false });
    const response = await page.goto(local.path);
    expect(response?.status()).toBe(200);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${base}${local.path}`);
  });

  test("an unknown product shows the 404 page", async ({ page, allowedConsoleErrors }) => {
    allowedConsoleErrors.push(/status of 404/);
    for (const path of ["/product/999999999", "/product/abc", "/weidian/nosuchitem999", "/notaplatform/123", "/category/999999999"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await expect(page.locator("header.site-header")).toBeVisible();
    }
  });

  test("search filters, sorts and pages; a category lists its subcategories' products", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const word = `${testInfo.project.name.replace(/[^a-z]/g, "")}${Math.random().toString(36).slice(2, 8)}`;
    const parentId = await createCategory(request, token, { name: `Bags ${word}`, description: "Everything to carry things in." });
    const childId = await createCategory(request, token, { name: `Totes ${word}`, parent_id: parentId });
    const products: TestProduct[] = [];
    for (const price of [50, 20, 90, 10, 70, 30, 80, 40, 60, 130, 110, 120, 100])
      products.push(await createProduct(request, testInfo, { word, price, categoryId: childId, token }));

    await page.goto(`/search?q=${word}`);
    await expect(page.getByText("13 products found")).toBeVisible();
    const cards = page.getByRole("list", { name: "Search results" }).getByRole("listitem");
    // 24 a page unless the shopper picks 12 or 48
    await expect(cards).toHaveCount(13);
    await page.getByLabel("Per page").selectOption("12");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/per=12/);
    await expect(cards).toHaveCount(12);
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "2" }).click();
    await expect(cards).toHaveCount(1);
    await expect(page).toHaveURL(/page=2/);

    // a new sort starts again at page 1
    await page.getByLabel("Sort by").selectOption("price_asc");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/sort=price_asc/);
    await expect(page).not.toHaveURL(/page=2/);
    await expect(page).toHaveURL(/per=12/);
    await expect(cards).toHaveCount(12);
    await expect(cards.first()).toContainText(`Canvas tote ${word} 10 `);
    await expect(page.getByLabel("Sort by")).toHaveValue("price_asc");

    // the category filter, and the local/external filter (these are local products)
    await page.getByLabel("Category").selectOption(String(parentId));
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`category=${parentId}`));
    await expect(page.getByText("13 products found")).toBeVisible();
    await page.getByLabel("Listing").selectOption("external");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No products match your search.")).toBeVisible();

    // the parent category's page lists the subcategory's products
    await page.goto("/");
    await expect(page.getByRole("link", { name: `Bags ${word} (13)` })).toBeVisible();
    await page.getByRole("link", { name: `Bags ${word} (13)` }).click();
    await expect(page).toHaveURL(`/category/${parentId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bags ${word}`);
    await expect(page.getByText("Everything to carry things in.")).toBeVisible();
    await expect(page.getByText("13 products", { exact: true })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Subcategories" }).getByRole("link", { name: new RegExp(`Totes ${word}`) }),
    ).toBeVisible();
    await page.getByLabel("Sort by").selectOption("price_desc");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator(".product-card").first()).toContainText(`Canvas tote ${word} 130 `);
  });

  test("the catalogue pages fit a 360 px wide phone, two products a row", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ["/", `/search?q=${product.token}`, product.path]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      // the currency and language fold behind their values on a phone
      await expect(page.getByText(/^[A-Z]{3} · EN$/)).toBeVisible();
    }
    await page.goto("/");
    const grid = page.locator(".product-grid").first();
    if (await grid.count()) {
      const columns = await grid.evaluate((element) => getComputedStyle(element).gridTemplateColumns.split(" ").length);
      expect(columns).toBe(2);
    }
  });

  test("the collection pages by 10 and sorts by date, price or name", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const word = `${testInfo.project.name.replace(/[^a-z]/g, "")}${Math.random().toString(36).slice(2, 8)}`;
    const user = await createUserViaApi(request, uniqueName(testInfo, "pages"), { token });
    const login = await request.post("/api/auth/login", { data: { email: user.email, password: user.password } });
    const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
    // collected one after another: the last collected (price 110) is the newest
    for (const price of [30, 100, 10, 60, 50, 90, 20, 80, 70, 40, 110]) {
      const product = await createProduct(request, testInfo, { word, price, token });
      const added = await request.post("/api/users/collections/add", { headers, data: { productId: product.id } });
      expect(added.ok(), await added.text()).toBe(true);
    }
    await loginViaForm(page, user.username, user.password, "/collections");
    const items = page.getByRole("list", { name: "Collected products" }).getByRole("listitem");
    await expect(page.getByText("11 products", { exact: true })).toBeVisible();
    await expect(items).toHaveCount(10);
    await expect(items.first()).toContainText(`Canvas tote ${word} 110 `);
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "2" }).click();
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(`Canvas tote ${word} 30 `);

    await page.getByLabel("Sort by").selectOption("price-asc");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/sort=price-asc/);
    await expect(items).toHaveCount(10);
    await expect(items.first()).toContainText(`Canvas tote ${word} 10 `);

    // removing keeps the sort
    await page.getByRole("button", { name: `Remove Canvas tote ${word} 10 ${testInfo.project.name} from collection`, exact: true }).click();
    await expect(toast(page, "Removed from your collection")).toBeVisible();
    await expect(page).toHaveURL(/sort=price-asc/);
    await expect(page.getByText("10 products", { exact: true })).toBeVisible();
    await expect(items.first()).toContainText(`Canvas tote ${word} 20 `);
  });
});
