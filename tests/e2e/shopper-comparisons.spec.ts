/**
 * What shoppers compare sites on (issue 39) in the browser, with JavaScript and without:
 * the SKU picker (the photo and price follow the choice, which is in the address), the
 * price history drawn without JavaScript, yen without decimals, and the storefront in
 * Spanish chosen from the header.
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import sharp from "sharp";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";

type Made = { id: number; path: string; name: string; skuIds: number[] };

/**
 * Two plain pictures (black, white) uploaded to the site: what the picker shows is which
 * one leads the gallery (photos the photo search could match are the photo tests' own).
 */
async function uploadPictures(request: APIRequestContext, headers: Record<string, string>): Promise<string[]> {
  const urls: string[] = [];
  for (const colour of [0, 255]) {
    const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: colour, g: colour, b: colour } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "picture.png");
    const uploaded = await request.post("/api/products/upload-image", { headers, multipart: form });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    urls.push((await uploaded.json()).data.imageUrl);
  }
  return urls;
}

async function jacket(request: APIRequestContext, testInfo: TestInfo): Promise<Made & { black: string; white: string }> {
  const headers = { Authorization: `Bearer ${await adminToken(request)}` };
  const [black, white] = await uploadPictures(request, headers);
  const name = uniqueName(testInfo, "Picker jacket");
  const created = await request.post("/api/admin/products", {
    headers,
    data: {
      name,
      price_cny: 100,
      main_images: [black],
      skus: [
        { sku_name: "黑色 Black / M", sku_price: 100, sku_stock: 3, sku_thumbnail_url: black },
        { sku_name: "黑色 Black / L", sku_price: 110, sku_stock: 4, sku_thumbnail_url: black },
        { sku_name: "白色 White / M", sku_price: 120, sku_stock: 5, sku_thumbnail_url: white },
        { sku_name: "白色 White / L", sku_price: 130, sku_stock: 2, sku_thumbnail_url: white },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const data = (await created.json()).data;
  const detail = (await (await request.get(`/api/products/${data.id}?incrementView=false`)).json()).data;
  return {
    id: data.id,
    path: new URL(data.url, "http://site.invalid").pathname,
    name,
    skuIds: detail.skus.map((sku: { id: number }) => sku.id),
    black,
    white,
  };
}

const picker = (page: Page, group: string) => page.getByRole("radiogroup", { name: group });

test.describe("what shoppers compare", () => {
  test.beforeEach(async ({ page }) => {
    await page.context().addCookies([{ name: "currency", value: "CNY", url: "http://127.0.0.1" }]);
  });

  test("the SKU picker: the price and photo follow the chosen options, and the choice is in the address", async ({
    page,
    request,
  }, testInfo) => {
    const product = await jacket(request, testInfo);
    await page.goto(product.path);
    const price = page.locator(".product-page__price .price__main");
    await expect(price).toHaveText("¥100.00");

    await picker(page, "Style").getByRole("radio", { name: "白色 White" }).click();
    await expect(page).toHaveURL(`${product.path}?sku=${product.skuIds[2]}`);
    await expect(price).toHaveText("¥120.00");
    await expect(page.locator(".product-page__main-image img")).toHaveAttribute("src", product.white);
    await expect(picker(page, "Style").getByRole("radio", { name: "白色 White" })).toHaveAttribute("aria-checked", "true");

    // the size keeps the colour: White / L
    await picker(page, "Size").getByRole("radio", { name: "L", exact: true }).click();
    await expect(page).toHaveURL(`${product.path}?sku=${product.skuIds[3]}`);
    await expect(price).toHaveText("¥130.00");
    await expect(page.getByText("Chosen: 白色 White / L")).toBeVisible();
    await expect(page.locator(".sku-table__chosen")).toContainText("白色 White / L");

    // the address shared opens on the same choice
    await page.goto(`${product.path}?sku=${product.skuIds[1]}`);
    await expect(price).toHaveText("¥110.00");
    await expect(page.locator(".product-page__main-image img")).toHaveAttribute("src", product.black);
  });

  test("QC photos sent for the chosen option come first on that option's page", async ({ page, request }, testInfo) => {
    const product = await jacket(request, testInfo);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `${product.path}?sku=${product.skuIds[2]}`);
    await page.goto(`${product.path}?sku=${product.skuIds[2]}`);
    const gallery = page.locator("#qc-gallery");
    // the upload box names the option chosen on the page
    await expect(gallery.getByLabel("Option shown")).toHaveValue("白色 White / M");
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    await gallery.locator('input[name="photos"]').setInputFiles([{ name: "white.jpg", mimeType: "image/jpeg", buffer: photo }]);
    await gallery.getByRole("button", { name: "Upload photos" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?sku=${product.skuIds[2]}`));
    await expect(gallery.locator(".qc-set__title").first()).toContainText("白色 White / M");
    // another option without photos of its own says so
    await page.goto(`${product.path}?sku=${product.skuIds[0]}`);
    await expect(gallery.getByText("No QC photos of 黑色 Black / M yet")).toBeVisible();
  });

  test("the price history is drawn on the product page, and yen show no decimals", async ({ page, request }, testInfo) => {
    const headers = { Authorization: `Bearer ${await adminToken(request)}` };
    const created = await request.post("/api/admin/products", {
      headers,
      data: { name: uniqueName(testInfo, "Charted tee"), price_cny: 699 },
    });
    const { id, url } = (await created.json()).data;
    expect((await request.put(`/api/admin/products/${id}`, { headers, data: { price_cny: 599 } })).status()).toBe(200);
    const path = new URL(url, "http://site.invalid").pathname;
    await page.goto(path);
    const history = page.getByRole("region", { name: "Price history" });
    await expect(history.getByRole("img")).toHaveAttribute("aria-label", /lowest ¥599\.00, highest ¥699\.00, now ¥599\.00/);
    await expect(history.getByRole("list", { name: "Latest price changes" })).toContainText("¥599.00");

    await page.context().addCookies([{ name: "currency", value: "JPY", url: "http://127.0.0.1" }]);
    await page.goto(path);
    await expect(page.locator(".product-page__price .price__main")).toHaveText(/^JP¥[\d,]+$/);
  });

  test("a shopper asks to be told when the price drops, then stops it", async ({ page, request }, testInfo) => {
    const headers = { Authorization: `Bearer ${await adminToken(request)}` };
    const created = await request.post("/api/admin/products", {
      headers,
      data: { name: uniqueName(testInfo, "Alert tee"), price_cny: 120 },
    });
    const path = new URL((await created.json()).data.url, "http://site.invalid").pathname;
    const user = await createUserViaApi(
      request,
      uniqueName(testInfo, "watcher")
        .replace(/[^a-z0-9_]/gi, "")
        .slice(0, 28),
    );
    await loginViaForm(page, user.email, user.password, path);
    await page.goto(path);
    const history = page.getByRole("region", { name: "Price history" });
    await history.getByRole("button", { name: "Tell me when it drops" }).click();
    await expect(page.getByRole("status").filter({ hasText: "We’ll e-mail you when the price drops" })).toBeVisible();
    await expect(history.getByText("We’ll e-mail you when the price drops.")).toBeVisible();
    await history.getByRole("button", { name: "Stop the price alert" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Price alert stopped" })).toBeVisible();
    await expect(history.getByRole("button", { name: "Tell me when it drops" })).toBeVisible();
  });

  test("the storefront in Spanish, chosen from the header", async ({ page }, testInfo) => {
    await page.goto("/search?q=hoodie");
    await page.getByLabel("Language").selectOption("es");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Switch" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page).toHaveURL(/\/search\?q=hoodie$/);
    await expect(page.getByLabel("Idioma")).toHaveValue("es");
    // and back
    await page.getByLabel("Idioma").selectOption("en");
    if (testInfo.project.name === "no-js") await page.locator("form.language-picker button").click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });
});
