import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, setSetting, test } from "./fixtures";

test.describe("site settings", () => {
  test.afterEach(() => {
    setSetting("site_name", "QC Finder");
    setSetting("site_keywords", "weidian, taobao, tmall, 1688, qc photos, shopping agent");
    setSetting("ad_banner_enabled", "false");
    setSetting("ad_banner_title", "");
    setSetting("ad_banner_link", "");
    setSetting("robots_txt", "");
  });

  test("saves fields from several tabs with one Save and the storefront follows", async ({ page }, testInfo) => {
    const siteName = `Shop ${testInfo.project.name} ${Math.random().toString(36).slice(2, 6)}`;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/site-settings");
    await expect(page.getByRole("heading", { name: "Site settings" })).toBeVisible();

    await expect(page.getByLabel("Site name")).toBeVisible();
    await page.getByLabel("Site name").fill(siteName);
    // other tabs' fields are hidden until their tab is picked
    await expect(page.getByLabel("Keywords")).toBeHidden();
    await page.locator("label.tabs__tab", { hasText: "SEO" }).click();
    await expect(page.getByLabel("Site name")).toBeHidden();
    await page.getByLabel("Keywords").fill("qc, agent, e2e");
    await page.locator("label.tabs__tab", { hasText: "Advertisement" }).click();
    await page.getByLabel("Show the advertisement banner").check();
    await page.getByLabel("Banner title").fill("Ship with us");
    await page.getByLabel("Button text").fill("Join");
    await page.getByLabel("Button link").fill("https://agent.example/join");
    await page.getByRole("button", { name: "Save settings" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
    await expect(page).toHaveURL(/tab=ad/);
    await expect(page.getByLabel("Banner title")).toHaveValue("Ship with us");
    await expect(page.locator(".site-header__brand")).toHaveText(siteName);

    await page.goto("/");
    await expect(page.locator(".site-header__brand")).toHaveText(siteName);
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", "qc, agent, e2e");
    const banner = page.getByRole("complementary", { name: "Advertisement" });
    await expect(banner).toContainText("Ship with us");
    await expect(banner.getByRole("link", { name: "Join" })).toHaveAttribute("href", "https://agent.example/join");
  });

  test("refuses a link that is not a full http(s) URL with 'Failed to save the settings'", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/site-settings?tab=ad");
    await page.getByLabel("Button link").fill("ftp://files.example/banner");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Failed to save the settings" })).toBeVisible();
    // the tab holding the error is the one shown
    await expect(page.getByLabel("Button link")).toBeVisible();
    await expect(page.getByLabel("Button link")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#setting-ad_banner_link-error")).toHaveText(
      /^Please enter a full URL starting with http:\/\/ or https:\/\//,
    );
  });

  test("generates the sitemap and tests robots.txt from the Tools tab", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/site-settings");
    await page.locator("label.tabs__tab", { hasText: "Tools" }).click();
    await expect(page.getByRole("link", { name: "Open /sitemap.xml" })).toHaveAttribute("href", "/sitemap.xml");
    await expect(page.getByRole("link", { name: "Open /robots.txt" })).toHaveAttribute("href", "/robots.txt");

    await page.getByRole("button", { name: "Generate sitemap" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Sitemap generated: \d+ URLs in [\d.]+ ms/ })).toBeVisible();

    await page.getByRole("button", { name: "Test robots.txt" }).click();
    const report = page.getByRole("status").filter({ hasText: "robots.txt test passed" });
    await expect(report).toBeVisible();
    await expect(report).toContainText(/Sitemap: http:\/\/\S+\/sitemap\.xml/);
    await expect(report).toContainText("answered HTTP 200");

    setSetting("robots_txt", "User-agent: *\nDisalow: /admin");
    await page.getByRole("button", { name: "Test robots.txt" }).click();
    const failure = page.getByRole("alert").filter({ hasText: "The robots.txt test failed" });
    await expect(failure).toBeVisible();
    await expect(failure).toContainText('unknown directive "Disalow"');
  });
});
