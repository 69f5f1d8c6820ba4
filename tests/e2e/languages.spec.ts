/**
 * The header's language form, as a reader uses it (decision 031): with JavaScript a change
 * switches at once, without it the "Set" button does; either way the same page comes back
 * in the other language, the choice is kept, and the back office follows it.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";

async function choose(page: Page, language: "en" | "zh-CN", enhanced: boolean) {
  const form = page.locator('form[action="/lang"]').first();
  // with JavaScript, the button hides once the page has hydrated: a change sends the form from then on
  if (enhanced) await expect(form.locator('button[type="submit"]')).toBeHidden();
  await form.locator('select[name="lang"]').selectOption(language);
  // with JavaScript the change sends the form; without it, the button does
  if (!enhanced) await form.locator('button[type="submit"]').click();
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}

test.describe("languages", () => {
  test("a shopper switches the storefront to Chinese and back, and stays on the page", async ({ page, javaScriptEnabled }) => {
    await page.goto("/search?q=hoodie");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator(".site-search__label")).toHaveText("Search");

    await choose(page, "zh-CN", javaScriptEnabled);
    await expect(page).toHaveURL(/\/search\?q=hoodie$/);
    await expect(page.locator(".site-footer")).toContainText("首页");
    await expect(page.locator('select[name="lang"]').first()).toHaveValue("zh-CN");

    // kept: another page opens in Chinese
    await page.goto("/blog");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");

    await choose(page, "en", javaScriptEnabled);
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.locator(".site-footer")).toContainText("Home");
  });

  test("staff switch the back office between Chinese and English", async ({ page, javaScriptEnabled }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto("/admin/products/new");
    // the browser asks for English (Accept-Language): the back office answers in it
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await choose(page, "zh-CN", javaScriptEnabled);
    await expect(page).toHaveURL(/\/admin\/products\/new$/);
    await expect(page.locator(".admin-nav")).toContainText("仪表盘");
    await choose(page, "en", javaScriptEnabled);
    await expect(page.locator(".admin-nav")).toContainText("Dashboard");
  });
});

test.describe("languages at the border of the back office", () => {
  // a Korean browser (a language the site does not write): the storefront answers in English,
  // the back office in Chinese (the defaults)
  test.use({ locale: "ko-KR" });

  test("crossing the border (a client navigation with JavaScript) shows each side in its own language, no raw key", async ({
    page,
    javaScriptEnabled,
  }) => {
    const rawKey = /\b(?:common|shop|admin)\.[a-z]\w*\.\w+/;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto("/search?q=hoodie");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    // into the back office by its link (a client navigation): Chinese, with its texts
    const data: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith(".data")) data.push(request.url());
    });
    await page.locator(".account-menu summary").click();
    await page.locator(".account-menu__panel").getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.locator(".admin-nav")).toContainText("仪表盘");
    await expect(page.locator("body")).not.toContainText(rawKey);

    // a back-office document, then a client navigation to the storefront: English again
    await page.goto("/admin/products");
    await expect(page.locator("html")).toHaveAttribute("data-storefront-lang", "en");
    data.length = 0;
    if (javaScriptEnabled) {
      await page.evaluate(() =>
        (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate("/blog"),
      );
    } else await page.goto("/blog");
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator(".site-footer")).toContainText("Home");
    await expect(page.locator("body")).not.toContainText(rawKey);
    // with JavaScript, one request for the page's data: no route asks for its own
    expect(data.filter((url) => !url.includes("_routes="))).toHaveLength(javaScriptEnabled ? 1 : 0);
    expect(data.filter((url) => url.includes("_routes="))).toEqual([]);
  });
});

test.describe("the page's texts", () => {
  test.use({ locale: "zh-CN" });

  test("a storefront page hydrates with the texts it came with; a navigation waits for the catalogue, fetched once, and says the next page in the reader's language", async ({
    page,
    javaScriptEnabled,
  }) => {
    // the Chinese storefront catalogue, held back until the test lets it through
    const chunks = JSON.parse(fs.readFileSync(path.join(process.cwd(), "build", "catalogue-chunks.json"), "utf8"));
    const catalogue: string = chunks.backOffice["zh-CN"][0];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const fetched: string[] = [];
    await page.route(`**${catalogue}`, async (route) => {
      fetched.push(route.request().url());
      await released;
      await route.continue();
    });
    await page.goto("/search?q=hoodie");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.locator(".site-footer")).toContainText("首页");
    // the catalogue is not among the page's scripts
    expect(await page.locator("link[rel=modulepreload][data-catalogue]").count()).toBe(0);
    if (!javaScriptEnabled) {
      release();
      await page.locator(".site-header__brand").click();
      await expect(page.locator("main")).toContainText("热门商品");
      expect(fetched).toEqual([]);
      return;
    }
    // hydrated without it (a page whose words differed from the server's would fail on React's mismatch error)
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    // a client navigation waits for the catalogue: still here while it is held back
    // (the site's name in the header: a client-side link)
    await page.locator(".site-header__brand").click();
    await expect.poll(() => fetched.length, { message: "the navigation asking for the held-back catalogue" }).toBe(1);
    await expect(page).toHaveURL(/\/search\?q=hoodie$/);
    release();
    await expect(page).toHaveURL(/\/$/);
    // the home page's own texts, which the search page did not carry, in Chinese
    await expect(page.locator("main")).toContainText("热门商品");
    await expect(page.locator("body")).not.toContainText(/\b(?:common|shop)\.[a-z]\w*\.\w+/);
    expect(fetched).toHaveLength(1);
  });
});

test.describe("before the page's scripts arrive", () => {
  test("a reader's change of language or currency is answered at once, and the pickers' buttons never show", async ({
    page,
    javaScriptEnabled,
    allowedConsoleErrors,
  }) => {
    // the page's scripts never come (a slow phone, a blocked CDN): only the head's early script runs
    allowedConsoleErrors.push(/Failed to load resource/);
    await page.route("**/build/**/*.js", (route) => route.abort());
    await page.goto("/search?q=hoodie");
    const language = page.locator('form[action="/lang"]').first();
    const currency = page.locator('form[action="/currency"]').first();
    if (javaScriptEnabled) {
      await expect(page.locator("html")).toHaveClass(/\bjs\b/);
      await expect(language.locator("button")).toBeHidden();
      await expect(currency.locator("button")).toBeHidden();
      expect(await page.locator("html").getAttribute("data-hydrated")).toBeNull();
      await currency.locator("select").selectOption("EUR");
      await expect(page.getByLabel("Currency")).toHaveValue("EUR");
      await language.locator("select").selectOption("zh-CN");
    } else {
      await expect(language.locator("button")).toBeVisible();
      await currency.locator("select").selectOption("EUR");
      await currency.locator("button").click();
      await expect(page.getByLabel("Currency")).toHaveValue("EUR");
      await language.locator("select").selectOption("zh-CN");
      await language.locator("button").click();
    }
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page).toHaveURL(/\/search\?q=hoodie$/);
    await expect(page.locator(".site-footer")).toContainText("首页");
  });
});

test.describe("the services' messages in Chinese", () => {
  test.use({ locale: "zh-CN" });

  test("a page showing one hydrates to the same words; one that comes after the page has hydrated is translated too", async ({
    page,
    javaScriptEnabled,
    allowedConsoleErrors,
  }) => {
    allowedConsoleErrors.push(/status of 400/);
    // the server's page shows a translated message: the page carries it translated and
    // hydrates with it, without the message pairs (a page hydrating to the English words
    // would fail on React's mismatch error). The pairs are held back here until it has hydrated.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/_shared\/messages-/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/unsubscribe?token=not-a-token");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.locator("main")).toContainText("此退订链接无效");
    if (javaScriptEnabled) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    release();
    await expect(page.locator("main")).toContainText("此退订链接无效");

    // a message that comes after the page has hydrated is translated too
    await page.goto("/search?q=hoodie");
    const tooLong = `/search?q=${"x".repeat(500)}`;
    if (javaScriptEnabled) {
      await page.evaluate(
        (to) => (window as unknown as { __remixRouter: { navigate: (to: string) => void } }).__remixRouter.navigate(to),
        tooLong,
      );
    } else await page.goto(tooLong);
    await expect(page.getByRole("alert")).toHaveText("搜索词太长");
  });
});
