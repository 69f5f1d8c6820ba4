/**
 * Marketplace links in the browser, with JavaScript on and off: paste an existing
 * product's link and land on it; paste a new one, import it and land on its page; pick a
 * shopping agent; report a dead link. The marketplaces are the fake of
 * tests/fakes/marketplace.ts (Playwright starts it; MARKETPLACE_BASE_URL points there).
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { hostileSheets } from "../fixtures/hostile-sheets";

const marketplace = process.env.E2E_MARKETPLACE_URL ?? "http://127.0.0.1:3459";
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const newItemId = (digits: number) =>
  String(6) +
  String(Date.now() + Math.floor(Math.random() * 1e6))
    .padStart(digits - 1, "3")
    .slice(-(digits - 1));

async function fakeItem(request: APIRequestContext, platform: string, itemId: string, state: unknown) {
  const response = await request.post(`${marketplace}/__control/item`, { data: { platform, itemId, state } });
  expect(response.ok()).toBe(true);
}

async function externalProduct(request: APIRequestContext, testInfo: TestInfo, source = "weidian") {
  const itemId = newItemId(source === "weidian" ? 10 : 12);
  const title = `Linked item ${uniqueName(testInfo, "l")}`;
  const response = await request.post("/api/products/sync-external", {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { itemId, title, price: 66, source },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { id: (await response.json()).data.id as number, itemId, title, path: `/${source}/${itemId}` };
}

async function searchFor(page: Page, text: string) {
  await page.goto("/");
  await page.getByRole("search").first().getByRole("searchbox").fill(text);
  await page.getByRole("search").first().getByRole("button", { name: "Search" }).click();
}

test.describe("marketplace links", () => {
  test("pasting the link of a product in the catalogue opens its page", async ({ page, request }, testInfo) => {
    const product = await externalProduct(request, testInfo);
    await searchFor(page, `【微店】https://weidian.com/item.html?itemID=${product.itemId}&spider_token=x 「${product.title}」`);
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await expect(page.getByRole("heading", { level: 1, name: product.title })).toBeVisible();
  });

  test("pasting a new link offers the import; a shopper imports it and lands on its page", async ({ page, request }, testInfo) => {
    const itemId = newItemId(12);
    // no pictures: the fake's picture addresses do not resolve, and later pages list this product
    await fakeItem(request, "taobao", itemId, {
      title: `Fresh import ${testInfo.project.name} ${itemId}`,
      price: 88,
      images: [],
      skus: [{ name: "Olive / L", price: 88, stock: 4 }],
      shopName: "E2E Shop",
    });
    const link = `https://item.taobao.com/item.htm?id=${itemId}`;

    // a visitor is asked to log in, and comes back to the same link
    await searchFor(page, link);
    await expect(page.getByText(`Taobao item ${itemId} is not in the catalogue yet.`)).toBeVisible();
    await page.getByRole("link", { name: "Log in" }).last().click();
    const shopper = await createUserViaApi(request, uniqueName(testInfo, "importer"));
    await page.getByLabel("Email or username").fill(shopper.email);
    await page.getByLabel("Password", { exact: true }).fill(shopper.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/import\?link=/);
    await page.getByRole("button", { name: "Import it from Taobao" }).click();
    await expect(page).toHaveURL(new RegExp(`/taobao/${itemId}$`));
    await expect(toast(page, "Imported from Taobao.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: `Fresh import ${testInfo.project.name} ${itemId}` })).toBeVisible();
    await expect(page.getByText("Olive / L")).toBeVisible();
    await expect(page.getByText("E2E Shop")).toBeVisible();
  });

  test("a shopper picks their agent and its link comes first", async ({ page, request }, testInfo) => {
    const product = await externalProduct(request, testInfo);
    await page.goto(product.path);
    const buyVia = page.getByRole("region", { name: "Buy via a shopping agent" });
    await expect(buyVia.getByRole("link", { name: "Buy via CNFans" })).toHaveAttribute(
      "href",
      `https://cnfans.com/product?id=${product.itemId}&platform=WEIDIAN`,
    );
    await buyVia.getByLabel("Your agent").selectOption({ label: "Sugargoo" });
    await buyVia.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Sugargoo comes first on product pages now.")).toBeVisible();
    await expect(buyVia.getByRole("link", { name: "Buy via Sugargoo" })).toHaveAttribute(
      "href",
      /^https:\/\/www\.sugargoo\.com\/#\/home\/productDetail\?productLink=/,
    );
    // remembered on other products too
    const other = await externalProduct(request, testInfo);
    await page.goto(other.path);
    await expect(page.getByRole("link", { name: "Buy via Sugargoo" })).toBeVisible();
  });

  test("anyone can report a dead link", async ({ page, request }, testInfo) => {
    const product = await externalProduct(request, testInfo);
    await page.goto(product.path);
    await page.getByText("Report a dead link").click();
    await page.getByLabel("What is wrong? (optional)").fill(`Gone (${testInfo.project.name})`);
    await page.getByRole("button", { name: "Send report" }).click();
    await expect(toast(page, "Thank you. We will check this listing.")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await loginViaForm(page, "admin@example.com", "admin-password-e2e", `/admin/products/${product.id}/edit`);
    await expect(page.getByText(`Gone (${testInfo.project.name})`)).toBeVisible();
  });
});

test.describe("links shoppers really paste", () => {
  test("a visitor gets an unknown item's marketplace page and agents' links at once; a text of several links lists each", async ({
    page,
    request,
    allowedConsoleErrors,
  }, testInfo) => {
    // the browser's note on the 404 of an unknown item's address
    allowedConsoleErrors.push(/status of 404/);
    const itemId = newItemId(10);
    await searchFor(page, `https://www.hoobuy.com/fr/product/2/${itemId}?inviteCode=x`);
    await expect(page.getByText(`Weidian item ${itemId} is not in the catalogue yet.`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Open on Weidian" })).toHaveAttribute(
      "href",
      `https://weidian.com/item.html?itemID=${itemId}`,
    );
    await expect(page.getByRole("link", { name: "Buy via CNFans" })).toHaveAttribute(
      "href",
      `https://cnfans.com/product?id=${itemId}&platform=WEIDIAN`,
    );

    const product = await externalProduct(request, testInfo);
    const fresh = newItemId(12);
    await searchFor(
      page,
      `https://example.com/finds https://item.taobao.com/item.htm?id=${fresh} https://weidian.com/item.html?itemID=${product.itemId}`,
    );
    await expect(page.getByRole("heading", { level: 1, name: "3 links found" })).toBeVisible();
    const entries = page.locator(".pasted-list__item");
    await expect(entries).toHaveCount(3);
    await expect(entries.nth(0)).toContainText("This is not a Weidian, Taobao, Tmall or 1688 product link or id.");
    await expect(entries.nth(1)).toContainText(`Taobao item ${fresh} is not in the catalogue yet.`);
    await entries.nth(2).getByRole("link", { name: product.title }).click();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));

    // the address of an item not in the catalogue: a 404 that still leads somewhere
    const unknown = newItemId(12);
    const response = await page.goto(`/taobao/${unknown}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not in the catalogue yet" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Open on Taobao" })).toHaveAttribute(
      "href",
      `https://item.taobao.com/item.htm?id=${unknown}`,
    );
  });

  test("staff bulk import pasted links: the progress page follows the import to its end", async ({
    page,
    request,
    allowedConsoleErrors,
  }) => {
    // a refused file is answered 400 with the form (the browser notes the status)
    allowedConsoleErrors.push(/status of 400/);
    const ids = [newItemId(12), newItemId(12), newItemId(12)];
    for (const [index, id] of ids.entries())
      await fakeItem(request, "taobao", id, { title: `Bulk e2e ${id}`, price: 5 + index, images: [], delayMs: 300 });
    await loginViaForm(page, "admin@example.com", "admin-password-e2e", "/admin/external-products");
    await page.getByRole("link", { name: "Bulk import" }).click();
    await page
      .getByLabel("Links")
      .fill([...ids.map((id) => `https://item.taobao.com/item.htm?id=${id}`), "https://example.com/not-an-item"].join("\n"));
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(page).toHaveURL(/\/admin\/imports\/\d+$/);
    await expect(toast(page, "Import started: 4 rows.")).toBeVisible();
    // without JavaScript the page refreshes itself; with it the page looks again
    await expect(page.getByRole("heading", { level: 2, name: "Done" })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("4 of 4 rows done. Imported: 3. Already there: 0. Duplicates: 0. Not items: 1. Failed: 0.")).toBeVisible();
    // finished, the bar says how the rows ended, not only that all were read: 3 of 4 green, 1 red
    const outcome = page.getByRole("img", { name: "Of 4 rows: 3 imported, 0 already in the catalogue, 1 not imported" });
    await expect(outcome).toBeVisible();
    await expect(outcome.locator(".import-outcome__imported")).toHaveAttribute("style", /width: ?75(\.00)?%/);
    await expect(outcome.locator(".import-outcome__failed")).toHaveAttribute("style", /width: ?25(\.00)?%/);
    await page.getByRole("link", { name: "Imported (3)" }).click();
    await expect(page.getByText(`Taobao ${ids[0]}`)).toBeVisible();

    // a spreadsheet export: its header skipped; a file that is not one is refused with the reason
    await page.getByRole("link", { name: "All imports" }).click();
    await page.getByLabel("Or a spreadsheet (CSV or XLSX)").setInputFiles({
      name: "notes.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 not a sheet"),
    });
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(page.getByText("Choose a CSV or XLSX file (a spreadsheet saved or exported as .csv or .xlsx).")).toBeVisible();
    // a workbook built to hurt (a cell a billion rows down) is refused at once, with one message
    const farRow = hostileSheets().find((sheet) => sheet.name === "far-row.xlsx")!;
    await page
      .getByLabel("Or a spreadsheet (CSV or XLSX)")
      .setInputFiles({ name: farRow.name, mimeType: farRow.type, buffer: Buffer.from(farRow.bytes) });
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(page.getByText("This file could not be read as a spreadsheet", { exact: false })).toBeVisible();
    await page.getByLabel("Or a spreadsheet (CSV or XLSX)").setInputFiles({
      name: "finds.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`Name,Link\nJacket,https://item.taobao.com/item.htm?id=${ids[1]}\n`),
    });
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(toast(page, "Import started: 1 row.")).toBeVisible();
    await expect(page.getByText("1 of 1 rows done. Imported: 0. Already there: 1. Duplicates: 0. Not items: 0. Failed: 0.")).toBeVisible({
      timeout: 20_000,
    });
  });
});
