/**
 * Discovery in a browser, with JavaScript on and off: the listing's filters as a shopper
 * uses them, the header's category menu, the share link, and staff editing the search's
 * aliases (the server's answer is what the page shows: errors, kept values, a cleared form).
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { adminToken } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const noJs = (testInfo: TestInfo) => testInfo.project.name === "no-js";

/** A word of letters only, unique per run and project (typo corrections read whole words). */
const wordFor = (testInfo: TestInfo) =>
  `${testInfo.project.name.replace(/[^a-z]/g, "")}${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 7)}`;

async function makeProduct(
  request: APIRequestContext,
  token: string,
  body: { name: string; platform: string; price: number; qc?: number; categoryId?: number },
) {
  const itemId = String(Math.floor(1e11 + Math.random() * 9e11));
  const response = await request.post("/api/admin/products", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: body.name,
      price_cny: body.price,
      platform: body.platform,
      platform_item_id: body.platform === "weidian" ? itemId.slice(0, 10) : itemId,
      ...(body.categoryId ? { category_id: body.categoryId } : {}),
      ...(body.qc ? { qc_images: Array.from({ length: body.qc }, (_, i) => `https://img.example/${itemId}-${i}.jpg`).join(", ") } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { id: number; name: string; url: string };
}

test.describe("discovery", () => {
  test("a price typed while a ticked filter's answer is on its way is kept, then applied", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const word = wordFor(testInfo);
    await makeProduct(request, token, { name: `Slowfilter ${word} cheap`, platform: "taobao", price: 100 });
    await makeProduct(request, token, { name: `Slowfilter ${word} dear`, platform: "taobao", price: 300 });
    await makeProduct(request, token, { name: `Slowfilter ${word} other`, platform: "weidian", price: 120 });
    await page.context().addCookies([{ name: "currency", value: "CNY", url: "http://127.0.0.1" }]);
    await page.goto(`/search?q=${word}`);
    const cards = page.getByRole("list", { name: "Search results" }).getByRole("listitem");
    await expect(cards).toHaveCount(3);
    // a slow connection: every answer of the search takes 1.5 s
    let delayed = 0;
    await page.route(/\/search(\.data)?\?/, async (route) => {
      delayed += 1;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole("checkbox", { name: "Taobao" }).check();
    // typed during the round trip (with JavaScript the tick has already been sent)
    await page.getByLabel("Highest price in CNY").fill("150");
    if (noJs(testInfo)) {
      await page.getByRole("button", { name: "Apply" }).click();
    } else {
      await expect(page).toHaveURL(/platform=taobao/);
      await expect(cards).toHaveCount(2);
      // the answer did not empty what was typed since
      await expect(page.getByLabel("Highest price in CNY")).toHaveValue("150");
      await page.getByLabel("Highest price in CNY").press("Enter");
    }
    await expect(page).toHaveURL(/max=150/);
    await expect(page).toHaveURL(/platform=taobao/);
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(`Slowfilter ${word} cheap`);
    await expect(page.getByLabel("Highest price in CNY")).toHaveValue("150");
    await expect(page.getByRole("checkbox", { name: "Taobao" })).toBeChecked();
    expect(delayed).toBeGreaterThan(0);
    await page.unroute(/\/search(\.data)?\?/);
  });

  test("a shopper narrows a search with filters, and the clear link drops them", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const word = wordFor(testInfo);
    await makeProduct(request, token, { name: `Lumen bag ${word} weidian one`, platform: "weidian", price: 100, qc: 2 });
    await makeProduct(request, token, { name: `Lumen bag ${word} taobao two`, platform: "taobao", price: 200, qc: 5 });
    await makeProduct(request, token, { name: `Lumen bag ${word} taobao three`, platform: "taobao", price: 900 });
    await makeProduct(request, token, { name: `Lumen bag ${word} tmall four`, platform: "tmall", price: 50, qc: 1 });

    await page.goto(`/search?q=${word}`);
    const cards = page.getByRole("list", { name: "Search results" }).getByRole("listitem");
    await expect(cards).toHaveCount(4);
    await expect(cards.filter({ hasText: "taobao two" })).toContainText("5 QC photos");
    await expect(cards.filter({ hasText: "taobao three" })).toContainText("No QC photos yet");

    // a marketplace: with JavaScript the change applies at once
    await page.getByRole("checkbox", { name: "Taobao" }).check();
    if (noJs(testInfo)) await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/platform=taobao/);
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole("checkbox", { name: "Taobao" })).toBeChecked();

    // a price range in the visitor's currency (CNY here), applied with the button
    await page.getByLabel("Currency").selectOption("CNY");
    if (noJs(testInfo)) await page.getByRole("button", { name: "Set" }).click();
    await expect(page.getByLabel("Currency")).toHaveValue("CNY");
    await page.getByLabel("Highest price in CNY").fill("500");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/max=500/);
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText("taobao two");
    await expect(page.getByLabel("Highest price in CNY")).toHaveValue("500");

    // a bad bound is said beside the fields and not applied
    await page.getByLabel("Lowest price in CNY").fill("cheap");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Enter prices as numbers, the lowest first")).toBeVisible();
    await expect(cards).toHaveCount(2);
    await page.getByLabel("Lowest price in CNY").fill("");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(cards).toHaveCount(1);

    // only with QC photos, most first
    await page.getByRole("link", { name: /Clear \d filters?/ }).click();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
    await expect(cards).toHaveCount(4);
    await page.getByRole("checkbox", { name: "With QC photos" }).check();
    if (noJs(testInfo)) await page.getByRole("button", { name: "Apply" }).click();
    await expect(cards).toHaveCount(3);
    await page.getByLabel("Sort by").selectOption("qc");
    if (noJs(testInfo)) await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/sort=qc/);
    await expect(page).toHaveURL(/qc=1/);
    await expect(cards.first()).toContainText("taobao two");
    await expect(cards.last()).toContainText("tmall four");
  });

  test("typos and no results: the page says what it searched and what to try", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const word = wordFor(testInfo);
    const made = await makeProduct(request, token, { name: `Velvra ${word} loafer`, platform: "weidian", price: 300 });
    // a typo of the word: its last letter mistyped
    const typo = `${word.slice(0, -1)}${word.endsWith("z") ? "y" : "z"}`;
    await page.goto(`/search?q=${typo}`);
    await expect(page.getByText(`Including results for “${word}”`)).toBeVisible();
    await expect(page.getByRole("link", { name: made.name })).toBeVisible();
    // a word no product has beside it: left out, and said so
    await page.goto(`/search?q=${typo}%20qqxqzz`);
    await expect(page.getByText("No product matches all the words: showing products without “qqxqzz”.")).toBeVisible();
    await expect(page.getByRole("link", { name: made.name })).toBeVisible();
    // nothing the filters leave: did you mean (without them), and a way to browse everything
    await page.goto(`/search?q=${typo}&platform=tmall`);
    await expect(page.getByText("No products match your search.")).toBeVisible();
    await page.getByRole("link", { name: `“${word}”` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Results for “${word}”`);
    await page.goto("/search?q=nothingatallqq");
    await page.getByRole("link", { name: "Browse all products" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All products");
  });

  test("the header's category menu opens without JavaScript and fits a phone", async ({ page, request }, testInfo) => {
    const token = await adminToken(request);
    const name = `Menu cat ${wordFor(testInfo)}`;
    const response = await request.post("/api/admin/categories", { headers: { Authorization: `Bearer ${token}` }, data: { name } });
    expect(response.status()).toBe(201);
    const id = (await response.json()).data.id as number;
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/blog");
      const menu = page.getByRole("navigation", { name: "Categories" });
      await expect(menu).toBeHidden();
      await page.locator("summary", { hasText: "Categories" }).click();
      await expect(menu.getByRole("link", { name: "All products" })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      await menu.getByRole("link", { name }).click();
      await expect(page).toHaveURL(`/category/${id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
      // with JavaScript the page changed in place: the menu closed
      await expect(page.getByRole("navigation", { name: "Categories" })).toBeHidden();
    }
  });

  test("a product page offers its address to share", async ({ page, request, context }, testInfo) => {
    const token = await adminToken(request);
    const made = await makeProduct(request, token, { name: `Share me ${wordFor(testInfo)}`, platform: "taobao", price: 80 });
    await page.goto(made.url);
    if (noJs(testInfo)) {
      const link = page.getByRole("link", { name: "Link to share this product" });
      await expect(link).toHaveAttribute("href", new RegExp(`${made.url}$`));
      return;
    }
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const button = page.getByRole("button", { name: /^(Share|Copy link)$/ });
    await expect(button).toBeVisible();
    if ((await button.textContent()) === "Copy link") {
      await button.click();
      await expect(page.getByText("Link copied")).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`${made.url}$`));
    }
  });

  test("staff add, correct, edit and delete a search alias; the search follows", async ({ page, request, browser, baseURL }, testInfo) => {
    const token = await adminToken(request);
    const word = wordFor(testInfo);
    const made = await makeProduct(request, token, { name: `Orbix Glide ${word} runner`, platform: "weidian", price: 420 });
    // nothing like any word products hold (else a typo correction would find them anyway)
    const term = `q${wordFor(testInfo).slice(-6)}x`;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/search-words");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Search words");

    // a mistake first: the server's message under the field, the typed word kept
    await page.getByLabel("Shoppers type").fill(term);
    await page.getByRole("button", { name: "Add alias" }).click();
    await expect(page.getByText("Enter at least one word it also finds")).toBeVisible();
    await expect(page.getByLabel("Shoppers type")).toHaveValue(term);

    await page.getByLabel("It also finds").fill(`Orbix Glide ${word}`);
    await page.getByRole("button", { name: "Add alias" }).click();
    await expect(toast(page, "Alias added")).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: term });
    await expect(row).toContainText(`Orbix Glide ${word}`);
    await expect(row).toContainText("One way");
    // the add form starts empty again
    await expect(page.getByLabel("Shoppers type")).toHaveValue("");
    await expect(page.getByLabel("It also finds")).toHaveValue("");

    // a shopper's search for the alias finds the product
    const visitor = await browser.newContext({ baseURL, javaScriptEnabled: !noJs(testInfo) });
    const shopper = await visitor.newPage();
    await shopper.goto(`/search?q=${term}`);
    await expect(shopper.getByRole("link", { name: made.name })).toBeVisible();

    // edit: both ways
    await row.getByRole("link", { name: `Edit ${term}` }).click();
    await expect(page.getByLabel("It also finds")).toHaveValue(`Orbix Glide ${word}`);
    await page.getByLabel(/Both ways/).check();
    await page.getByRole("button", { name: "Save alias" }).click();
    await expect(toast(page, "Alias saved")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: term })).toContainText("Both ways");

    // delete, after a confirmation
    await page
      .getByRole("row")
      .filter({ hasText: term })
      .getByRole("link", { name: /Delete/ })
      .click();
    await expect(page.getByRole("dialog", { name: "Delete alias" })).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: "Delete alias" }).click();
    await expect(toast(page, "Alias deleted")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: term })).toHaveCount(0);
    await shopper.goto(`/search?q=${term}`);
    await expect(shopper.getByText("No products match your search.")).toBeVisible();
    await visitor.close();
  });
});
