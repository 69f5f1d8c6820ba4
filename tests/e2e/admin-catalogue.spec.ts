/**
 * The catalogue back office in a browser, with JavaScript on and off: categories
 * (create, reorder, edit, delete), the external product list (delete one, bulk delete),
 * manual exchange rates seen on the storefront, and hiding external products.
 */
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { adminToken, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

/** A word no other product or category has (letters only). */
function word(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

async function api(request: APIRequestContext, method: "POST" | "PUT", path: string, data: unknown) {
  const response = await request.fetch(path, { method, headers: { Authorization: `Bearer ${await adminToken(request)}` }, data });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()).data;
}

async function importProduct(request: APIRequestContext, name: string, price = 100): Promise<{ id: number; url: string }> {
  const itemId = String(Math.floor(1e11 + Math.random() * 9e11));
  const data = await api(request, "POST", "/api/products/sync-external", {
    itemId,
    title: name,
    price,
    images: [],
    source: "taobao",
    shopName: "E2E shop",
  });
  return { id: data.id, url: data.url };
}

const FILES = path.join(import.meta.dirname, "files");

/** Adds SKU rows one at a time, each seen before the next click (a click before the page is live goes to the server instead). */
async function addSkus(page: Page, count: number) {
  const rows = page.locator(".sku-grid__row");
  const start = await rows.count();
  for (let i = 1; i <= count; i++) {
    await page.getByRole("button", { name: "Add SKU" }).click();
    await expect(rows).toHaveCount(start + i);
  }
}

test.describe("catalogue back office", () => {
  test("creates a product with three SKUs and two uploaded images, edits its SKUs, sees it on the storefront, bulk-deletes it", async ({
    page,
  }, testInfo) => {
    const tag = word();
    const name = `Form jacket ${tag} ${testInfo.project.name}`;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/products");
    await page.getByRole("link", { name: "Add product" }).click();
    await expect(page.getByRole("heading", { name: "Add product" })).toBeVisible();

    // a name too short: the form says so and keeps what was typed
    await page.getByLabel("Name", { exact: true }).fill("ab");
    await page.getByLabel("Price (CNY, optional)").fill("120");
    await page.getByRole("button", { name: "Create product" }).last().click();
    await expect(page.getByRole("alert").filter({ hasText: "Please fix the errors in the form." })).toBeVisible();
    await expect(page.getByText("Product name must be at least 3 characters")).toBeVisible();
    await expect(page.getByLabel("Price (CNY, optional)")).toHaveValue("120");

    await page.getByLabel("Name", { exact: true }).fill(name);
    await addSkus(page, 3);
    // new rows are "new model", then numbered: no two alike before anything is typed
    await expect(page.getByLabel("SKU 1 name")).toHaveValue("new model");
    await expect(page.getByLabel("SKU 3 name")).toHaveValue("new model 3");
    for (const [index, sku] of ["Small", "Medium", "Large"].entries()) {
      await page.getByLabel(`SKU ${index + 1} name`).fill(sku);
      await page.locator(`input[name="skus[${index}].sku_price"]`).fill(String(100 + index * 10));
      await page.locator(`input[name="skus[${index}].sku_stock"]`).fill(String(5 + index));
    }
    await page.getByLabel("Upload images").setInputFiles([path.join(FILES, "avatar.png"), path.join(FILES, "avatar.png")]);
    await page.getByRole("button", { name: "Create product" }).last().click();
    await expect(toast(page, `Product created: ${name} (2/2 images uploaded)`)).toBeVisible();

    // edit: change one SKU, remove one, add one
    await page.getByRole("searchbox", { name: "Search products" }).last().fill(tag);
    await page.getByRole("button", { name: "Search", exact: true }).last().click();
    await page.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("heading", { name: "Edit product" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Current images" }).getByRole("img")).toHaveCount(2);
    await page.locator('input[name="skus[0].sku_price"]').fill("99");
    await page.getByRole("button", { name: "Remove SKU 2" }).click();
    await expect(page.getByLabel("SKU 2 name")).toHaveValue("Large");
    await addSkus(page, 1);
    await page.getByLabel("SKU 3 name").fill("XL");
    await page.locator('input[name="skus[2].sku_price"]').fill("140");
    await page.getByRole("button", { name: "Save product" }).last().click();
    await expect(toast(page, `Product updated: ${name}`)).toBeVisible();

    // the storefront shows it as saved
    await page.goto(`/search?q=${tag}`);
    await page.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const skuRows = page.getByRole("row");
    await expect(skuRows.filter({ hasText: "Small" })).toContainText("99");
    await expect(skuRows.filter({ hasText: "XL" })).toContainText("140");
    await expect(skuRows.filter({ hasText: "Medium" })).toHaveCount(0);

    // bulk delete from the list
    await page.goto(`/admin/products?q=${tag}`);
    await page.getByLabel(`Select ${name}`).check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    await page.getByRole("dialog", { name: "Delete 1 product?" }).getByRole("button", { name: "Delete 1 product" }).click();
    await expect(toast(page, "Deleted 1 product")).toBeVisible();
    await expect(page.getByText(`No products match “${tag}”.`)).toBeVisible();
  });

  test("the product form with its bulk tools fits a 360 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/products/new");
    await addSkus(page, 6);
    await expect(page.getByRole("button", { name: "Apply to all SKUs" })).toBeVisible();
    for (const selector of ["form.product-form", ".sku-bulk", ".sku-grid"]) {
      const box = await page.locator(selector).boundingBox();
      expect(box!.x + box!.width, selector).toBeLessThanOrEqual(360);
    }
  });

  test("creates a category in the dialog, reorders it, edits it and deletes it", async ({ page, request }, testInfo) => {
    const prefix = uniqueName(testInfo, "Cat");
    // two neighbours at the end of the list to move between
    await api(request, "POST", "/api/admin/categories", { name: `${prefix} first`, sort_order: 90000 });
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/categories");

    await page.getByRole("link", { name: "Add category" }).click();
    const dialog = page.getByRole("dialog", { name: "Add category" });
    await dialog.getByRole("button", { name: "Create category" }).click();
    await expect(dialog.getByText("Category name is required.")).toBeVisible();
    // a name its neighbour already has is refused on the field, whatever the case
    await dialog.getByLabel("Name").fill(`${prefix} FIRST`);
    await dialog.getByRole("button", { name: "Create category" }).click();
    await expect(dialog.getByText(`A category named “${prefix} first” already exists at this level: choose another name`)).toBeVisible();
    await expect(dialog.getByLabel("Name")).toHaveValue(`${prefix} FIRST`);
    await dialog.getByLabel("Name").fill(`${prefix} second`);
    await dialog.getByLabel("Sort order").fill("90001");
    await dialog.getByRole("button", { name: "Create category" }).click();
    await expect(toast(page, `Category created: ${prefix} second`)).toBeVisible();

    // only these two, in order; then the second moves up
    const categorySearch = page.getByRole("search").filter({ has: page.getByRole("searchbox", { name: "Search categories" }) });
    await categorySearch.getByRole("searchbox").fill(prefix);
    await categorySearch.getByRole("button", { name: "Search" }).click();
    const names = page.locator(".admin-table tbody tr td:first-child strong");
    await expect(names).toHaveText([`${prefix} first`, `${prefix} second`]);
    await page.getByRole("button", { name: `Move ${prefix} second up` }).click();
    await expect(toast(page, "Sort order saved")).toBeVisible();
    await expect(names).toHaveText([`${prefix} second`, `${prefix} first`]);
    // the inline sort value puts it back last
    await page.getByLabel(`Sort order of ${prefix} second`).fill("99999");
    await page
      .getByRole("row")
      .filter({ hasText: `${prefix} second` })
      .getByRole("button", { name: "Set" })
      .click();
    await expect(toast(page, "Sort order saved")).toBeVisible();
    await expect(names).toHaveText([`${prefix} first`, `${prefix} second`]);

    await page.getByRole("link", { name: `Edit ${prefix} second` }).click();
    await expect(page.getByRole("heading", { name: "Edit category" })).toBeVisible();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("No changes detected.")).toBeVisible();
    await page.getByLabel("Name").fill(`${prefix} renamed`);
    await page.getByLabel("Parent category").selectOption({ label: `${prefix} first` });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, `Category updated: ${prefix} renamed`)).toBeVisible();

    await page.goto(`/admin/categories?q=${encodeURIComponent(prefix)}`);
    await expect(page.getByRole("row").filter({ hasText: `${prefix} renamed` })).toContainText(`${prefix} first`);
    await page.getByRole("link", { name: `Delete ${prefix} renamed` }).click();
    await page.getByRole("dialog", { name: "Delete category" }).getByRole("button", { name: "Delete category" }).click();
    await expect(toast(page, "Category deleted")).toBeVisible();
    await expect(names).toHaveText([`${prefix} first`]);
  });

  test("deletes external products one by one and in bulk", async ({ page, request }, testInfo) => {
    const tag = word();
    const names = [
      `Imported ${tag} one ${testInfo.project.name}`,
      `Imported ${tag} two ${testInfo.project.name}`,
      `Imported ${tag} three ${testInfo.project.name}`,
    ];
    for (const name of names) await importProduct(request, name);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/external-products?q=${tag}`);
    await expect(page.getByRole("heading", { name: /External products/ })).toBeVisible();
    for (const name of names) await expect(page.getByText(name)).toBeVisible();

    await page.getByRole("link", { name: `Delete ${names[0]}` }).click();
    await page.getByRole("dialog", { name: "Delete product" }).getByRole("button", { name: "Delete product" }).click();
    await expect(toast(page, "The product was deleted.")).toBeVisible();
    await expect(page.getByText(names[0])).toHaveCount(0);

    // nothing chosen: asked to choose
    await page.getByRole("button", { name: "Delete selected" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Select the products to delete first." })).toBeVisible();
    if (testInfo.project.name === "no-js") {
      await page.getByLabel(`Select ${names[1]}`).check();
      await page.getByLabel(`Select ${names[2]}`).check();
    } else {
      await page.getByLabel("Select all on this page").check();
      await expect(page.getByLabel(`Select ${names[2]}`)).toBeChecked();
    }
    await page.getByRole("button", { name: "Delete selected" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 2 products?" });
    await expect(confirm).toContainText(names[1]);
    await confirm.getByRole("button", { name: "Delete 2 products" }).click();
    await expect(toast(page, "Deleted 2 products")).toBeVisible();
    await expect(page.getByText(`No products match “${tag}”.`)).toBeVisible();
  });

  test("manual exchange rates change the storefront's prices, and automatic mode comes back", async ({ page, request }, testInfo) => {
    const product = await importProduct(request, `Rated ${word()} ${testInfo.project.name}`, 100);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/currency-settings");
    await expect(page.getByText("Automatic", { exact: true })).toBeVisible();
    try {
      await page.getByLabel(/1 USD/).fill("5");
      await page.getByRole("button", { name: "Save manual rates" }).click();
      await expect(toast(page, "Manual exchange rates saved.")).toBeVisible();
      await expect(page.getByText("Manual", { exact: true })).toBeVisible();
      await expect(page.getByLabel(/1 USD/)).toHaveValue("5");

      await page.goto(product.url);
      // 100 CNY at 5 CNY per dollar
      await expect(page.locator(".price__main").first()).toHaveText("$20.00");
    } finally {
      await page.goto("/admin/currency-settings");
      const back = page.getByRole("button", { name: "Back to automatic rates" });
      if (await back.isVisible()) await back.click();
    }
    await expect(toast(page, "Automatic rates are in effect again")).toBeVisible();
    await expect(page.getByText("Automatic", { exact: true })).toBeVisible();
    const usd = (await (await request.get("/api/exchange-rates")).json()).data.rates.USD as number;
    expect(usd).not.toBe(5);
    await page.goto(product.url);
    await expect(page.locator(".price__main").first()).toHaveText(`$${(100 / usd).toFixed(2)}`);
  });

  test("hiding external products takes them out of search, and showing them brings them back", async ({ page, request }, testInfo) => {
    const tag = word();
    await importProduct(request, `Hidden ${tag} ${testInfo.project.name}`);
    // what a visitor's search finds (staff see every product everywhere)
    const visitorSearch = async () =>
      (await (await request.get(`/search?q=${tag}`, { headers: { Cookie: "" } })).text()).replace(/<!-- -->/g, "");
    expect(await visitorSearch()).toContain("1 product found");

    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/product-display-settings");
    const setSwitch = async (on: boolean) => {
      const box = page.getByLabel("Show external products on the storefront");
      if (on) await box.check();
      else await box.uncheck();
      // with JavaScript the switch saves itself; without, the Save button sends it
      if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page, "External product display setting saved")).toBeVisible();
      await expect(page.getByText(on ? "External products are shown." : "External products are hidden.")).toBeVisible();
    };
    try {
      await setSwitch(false);
      expect(await visitorSearch()).toContain("No products match your search.");
    } finally {
      await page.goto("/admin/product-display-settings");
      await setSwitch(true);
    }
    expect(await visitorSearch()).toContain("1 product found");
  });
});
