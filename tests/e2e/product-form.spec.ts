/**
 * The back-office product form does with JavaScript what it does without: what the
 * server answers (an import, "apply to all SKUs", stored images, errors) is what the
 * form shows, a file is sent once, every "Add SKU" press adds a row. Run in both projects:
 * the js one is the normal case, the no-js one its twin.
 */
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test, withDatabase } from "./fixtures";

const marketplace = process.env.E2E_MARKETPLACE_URL ?? "http://127.0.0.1:3459";
const FILES = path.join(import.meta.dirname, "files");
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const newItemId = () => `7${String(Date.now() + Math.floor(Math.random() * 1e6)).slice(-9)}`;

async function fakeItem(request: APIRequestContext, platform: string, itemId: string, state: unknown) {
  const response = await request.post(`${marketplace}/__control/item`, { data: { platform, itemId, state } });
  expect(response.ok()).toBe(true);
}

const skuRows = (page: Page) => page.locator(".sku-grid__row");

test.describe("the product form", () => {
  test("import from a link fills the form; apply to all SKUs sets every row; saved, the page lists them", async ({
    page,
    request,
  }, testInfo) => {
    const itemId = newItemId();
    const title = `导入测试 Imported jacket ${testInfo.project.name} ${itemId}`;
    const sizes = ["S", "M", "L", "XL", "XXL", "XXXL"];
    await fakeItem(request, "weidian", itemId, {
      title,
      price: 158,
      images: [],
      skus: sizes.map((size) => ({ name: `黑色 ${size}`, price: 0, stock: 0 })),
    });
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/products/new");

    await page.getByLabel("Product link or id").fill(`https://weidian.com/item.html?itemID=${itemId}`);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `Imported the Weidian item` })).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(title);
    await expect(page.getByLabel("Price (CNY, optional)")).toHaveValue("158");
    await expect(page.getByLabel("Platform", { exact: true })).toHaveValue("weidian");
    await expect(page.getByLabel("Platform item id")).toHaveValue(itemId);
    await expect(skuRows(page)).toHaveCount(6);
    await expect(page.getByLabel("SKU 6 name")).toHaveValue("黑色 XXXL");

    // the product price (158) and stock 100 for every row
    await page.getByRole("button", { name: "Apply to all SKUs" }).click();
    for (let index = 0; index < 6; index++) {
      await expect(page.locator(`input[name="skus[${index}].sku_price"]`)).toHaveValue("158");
      await expect(page.locator(`input[name="skus[${index}].sku_stock"]`)).toHaveValue("100");
    }
    await page.getByRole("button", { name: "Create product" }).last().click();
    await expect(toast(page, `Product created: ${title}`)).toBeVisible();
    await page.goto(`/weidian/${itemId}`);
    const options = page.getByRole("table").getByRole("row");
    await expect(options.filter({ hasText: "黑色 XL" })).toContainText("$23.80");
    await expect(options.filter({ hasText: "$0.00" })).toHaveCount(0);
  });

  test("images chosen are stored once with the next press, their address shown, the file input empty again; each Add SKU press adds a row", async ({
    page,
  }, testInfo) => {
    const name = `Uploaded images ${testInfo.project.name} ${Date.now()}`;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/products/new");
    await page.getByLabel("Name", { exact: true }).fill(name);
    const storedBefore = withDatabase(
      (db) => (db.prepare("SELECT count(*) AS n FROM uploads WHERE kind = 'products'").get() as { n: number }).n,
    );

    await page.getByLabel("Upload images").setInputFiles(path.join(FILES, "avatar.png"));
    await page.getByRole("button", { name: "Add SKU" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1/1 images uploaded" })).toBeVisible();
    await expect(page.getByLabel("Image addresses")).toHaveValue(/^\/uploads\/products\/\d{4}-\d{2}\/[0-9a-f-]+\.webp$/);
    await expect(page.getByLabel("Upload images")).toHaveValue("");
    await expect(skuRows(page)).toHaveCount(1);
    // what was typed before the press is kept
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);

    // three presses, three rows; the image is not sent again
    for (let press = 0; press < 3; press++) await page.getByRole("button", { name: "Add SKU" }).click();
    await expect(skuRows(page)).toHaveCount(4);
    // the first new row is "new model" (docs/product/admin.md), the next ones numbered: names
    // differ within a product, so rows nobody has typed in yet show no error
    for (const [index, expected] of ["new model", "new model 2", "new model 3", "new model 4"].entries())
      await expect(page.getByLabel(`SKU ${index + 1} name`)).toHaveValue(expected);
    await expect(page.getByText("Each SKU name may appear only once in a product")).toHaveCount(0);
    // "apply to all" from 2 SKUs
    await expect(page.getByRole("button", { name: "Apply to all SKUs" })).toBeVisible();
    await page.getByRole("button", { name: "Create product" }).last().click();
    await expect(toast(page, `Product created: ${name}`)).toBeVisible();
    const storedAfter = withDatabase(
      (db) => (db.prepare("SELECT count(*) AS n FROM uploads WHERE kind = 'products'").get() as { n: number }).n,
    );
    expect(storedAfter - storedBefore).toBe(1);
    const saved = withDatabase((db) =>
      db
        .prepare("SELECT images, (SELECT count(*) FROM product_skus s WHERE s.product_id = p.id) AS skus FROM products p WHERE name = ?")
        .get(name),
    ) as { images: string; skus: number };
    expect(JSON.parse(saved.images)).toHaveLength(1);
    expect(saved.skus).toBe(4);
  });

  test("a save with errors shows the server's errors and keeps what was typed", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/products/new");
    await page.getByLabel("Name", { exact: true }).fill("ab");
    await page.getByLabel("Price (CNY, optional)").fill("12.5");
    await page.getByRole("button", { name: "Create product" }).last().click();
    await expect(page.getByRole("alert").filter({ hasText: "Please fix the errors in the form." })).toBeVisible();
    await expect(page.getByText("Product name must be at least 3 characters")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("ab");
    await expect(page.getByLabel("Price (CNY, optional)")).toHaveValue("12.5");
  });
});
