import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, setSetting, test } from "./fixtures";

test.describe("site shell", () => {
  test.afterEach(() => {
    setSetting("ad_banner_enabled", "false");
    setSetting("google_analytics_code", "");
    setSetting("site_name", "QC Finder");
  });

  test("the home page renders with header, search, footer and meta tags", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/QC Finder/);
    await expect(page.getByRole("link", { name: "QC Finder" }).first()).toBeVisible();
    await expect(page.getByRole("search").first()).toBeVisible();
    await expect(page.locator("footer")).toContainText("QC Finder");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /Weidian/);
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", /taobao/);
  });

  test("the header search form submits a GET to /search", async ({ page }) => {
    await page.goto("/");
    const search = page.getByRole("search").first();
    await search.getByRole("searchbox").fill("sneakers");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=sneakers$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("sneakers");
    await expect(page.locator("#site-search-q")).toHaveValue("sneakers");
  });

  test("the site name comes from the settings", async ({ page }) => {
    setSetting("site_name", "Agent Finds");
    await page.goto("/");
    await expect(page.locator(".site-header__brand")).toHaveText("Agent Finds");
  });

  test("unknown pages show a 404 inside the site chrome", async ({ page, allowedConsoleErrors }) => {
    allowedConsoleErrors.push(/status of 404/);
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.locator("header.site-header")).toBeVisible();
    await expect(page.locator("footer.site-footer")).toBeVisible();
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("the ad banner shows desktop and mobile texts when enabled", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".ad-banner")).toHaveCount(0);
    setSetting("ad_banner_enabled", "true");
    setSetting("ad_banner_title", "Ship with us");
    setSetting("ad_banner_description", "Cheap shipping to Europe");
    setSetting("ad_banner_button_text", "Sign up");
    setSetting("ad_banner_link", "https://agent.example/signup");
    setSetting("ad_banner_button_subtext", "Desktop bonus");
    setSetting("ad_banner_button_subtext_mobile", "Mobile bonus");
    await page.goto("/");
    const banner = page.getByRole("complementary", { name: "Advertisement" });
    await expect(banner).toContainText("Ship with us");
    await expect(banner.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "https://agent.example/signup");
    await expect(banner.getByText("Desktop bonus")).toBeVisible();
    await expect(banner.getByText("Mobile bonus")).toBeHidden();
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(banner.getByText("Mobile bonus")).toBeVisible();
    await expect(banner.getByText("Desktop bonus")).toBeHidden();

    // the back office is for work: no banner there
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.locator(".ad-banner")).toHaveCount(0);
    await page.goto("/");
    await expect(page.locator(".ad-banner")).toHaveCount(1);
  });

  test("the analytics code is injected only when set, and runs under the CSP", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page.locator(".analytics")).toHaveCount(0);
    setSetting("google_analytics_code", "<script>window.__analyticsRan = true;</script>");
    await page.goto("/");
    await expect(page.locator(".analytics")).toHaveCount(1);
    const ran = await page.evaluate(() => (window as unknown as { __analyticsRan?: boolean }).__analyticsRan ?? null);
    // with JavaScript disabled nothing runs; with it, the nonce lets the snippet run
    expect(ran).toBe(testInfo.project.name === "js" ? true : null);
  });

  test("the home page has one search box, and no search box cuts its placeholder on a phone", async ({ page }) => {
    /** whether the box's placeholder fits its text area, measured in the box's own font */
    const placeholderFits = () =>
      page.locator("#site-search-q").evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = style.font;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text: input.placeholder, width: Math.ceil(context.measureText(input.placeholder).width), room };
      });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto("/");
      await expect(page.getByRole("search")).toHaveCount(1);
      await expect(page.getByRole("searchbox")).toHaveCount(1);
      const home = await placeholderFits();
      expect(home.width, JSON.stringify(home)).toBeLessThanOrEqual(home.room);
      // other pages: the header's box
      await page.goto("/blog");
      await expect(page.getByRole("search").first().getByRole("button", { name: "Search" })).toBeVisible();
      const header = await placeholderFits();
      expect(header.width, JSON.stringify(header)).toBeLessThanOrEqual(header.room);
    }
  });

  test("the layout fits a 360 px wide phone without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole("search").first()).toBeVisible();
  });

  test("on a 360 px phone the header takes two rows; the currency and language fold behind their values", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/search?q=hoodie");
    const header = (await page.locator("header.site-header").boundingBox())!;
    expect(header.height).toBeLessThanOrEqual(120);
    // the first row: the name, the menu, the pickers' fold and the account; the search below
    const top = async (locator: string) => (await page.locator(locator).first().boundingBox())!.y;
    const firstRow = await top(".site-header__brand");
    expect(Math.abs((await top(".site-header__nav")) - firstRow)).toBeLessThan(16);
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(page.getByLabel("Currency")).toBeHidden();
    // the fold opens the pickers (a checkbox: no JavaScript needed), and a choice is kept
    await page.getByText("USD · EN").click();
    await expect(page.getByLabel("Currency")).toBeVisible();
    await page.getByLabel("Currency").selectOption("EUR");
    if (testInfo.project.name === "no-js") await page.getByRole("button", { name: "Set" }).click();
    await expect(page.getByText("EUR · EN")).toBeVisible();
    // the menu's sign keeps its name for screen readers, and the menu opens
    await page.locator(".category-menu > summary").click();
    await expect(page.locator(".category-menu")).toHaveAttribute("open", "");
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "All products" })).toBeVisible();
    await expect(page.locator(".category-menu > summary")).toHaveAccessibleName("Categories");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
