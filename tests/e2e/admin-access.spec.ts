import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { createUserViaApi, uniqueName } from "./admin-helpers";
import { expect, test } from "./fixtures";

test.describe("admin access and shell", () => {
  test("a visitor is sent to the login page and comes back to /admin", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login\?redirectTo=(%2F|\/)admin$/);
    await page.getByLabel("Email or username").fill(E2E_ADMIN.email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  });

  test("a regular user gets the 403 page inside the site chrome", async ({ page, request, allowedConsoleErrors }, testInfo) => {
    allowedConsoleErrors.push(/status of 403/);
    const user = await createUserViaApi(request, uniqueName(testInfo, "reg"));
    await loginViaForm(page, user.email, user.password);
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    await expect(page.getByText("You do not have access to the admin area.")).toBeVisible();
    await expect(page.locator("header.site-header")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin navigation" })).toHaveCount(0);
    expect((await page.goto("/admin/users"))?.status()).toBe(403);
  });

  test("the dashboard and sidebar show what the super admin may use", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin");
    const nav = page.getByRole("navigation", { name: "Admin navigation" });
    await expect(nav.getByRole("link")).toHaveText([
      "Dashboard",
      "User management",
      "Category management",
      "Local products",
      "External products",
      "Blog categories",
      "Blog posts",
      "Comments",
      "Blog settings",
      "QC file management",
      "QC image review",
      "Email marketing",
      "Exchange rates",
      "Product display",
      "Shopping agents",
      "Site settings",
      "Admin settings",
    ]);
    await expect(nav.getByText("Product management")).toBeVisible();
    await expect(nav.getByText("QC management")).toBeVisible();
    await expect(nav.getByText("System settings")).toBeVisible();
    await expect(nav.getByText("Blog management")).toBeVisible();
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
    const sidebar = page.getByRole("complementary", { name: "Admin sidebar" });
    await expect(sidebar.getByText(E2E_ADMIN.username, { exact: true })).toBeVisible();
    await expect(sidebar.getByText("Super admin")).toBeVisible();
    await expect(page.getByText("v1.0.0")).toBeVisible();

    const counts = page.getByRole("list", { name: "Counts" }).getByRole("link");
    await expect(counts).toHaveCount(4);
    await expect(counts.nth(0)).toContainText("Total users");
    await expect(counts.nth(1)).toContainText("Local products");
    await expect(counts.nth(2)).toContainText("Total categories");
    await expect(counts.nth(3)).toContainText("External products");
    const qc = page.getByRole("region", { name: "QC photos" });
    await expect(qc.getByText("Waiting for review")).toBeVisible();
    await page.getByRole("link", { name: /Total users/ }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await sidebar.getByRole("link", { name: "Admin settings" }).click();
    await expect(page.getByRole("heading", { name: "Admin settings" })).toBeVisible();
    await expect(page.getByText("running normally")).toBeVisible();
    // every card opens a working page: no disabled "coming soon" ones
    await expect(page.getByText(/coming soon/i)).toHaveCount(0);
    await expect(page.locator(".admin-settings-cards").getByRole("button", { disabled: true })).toHaveCount(0);

    await sidebar.getByRole("link", { name: "← Return to site" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("logging out from the sidebar ends the session", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin");
    await page.getByRole("complementary", { name: "Admin sidebar" }).getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });

  test("on a 360 px phone the sidebar is a drawer that opens without JavaScript", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin");
    const sidebar = page.getByRole("complementary", { name: "Admin sidebar" });
    await expect(sidebar.getByRole("link", { name: "User management" })).toBeHidden();
    await page.locator(".admin-topbar").getByText("Menu").click();
    await expect(sidebar.getByRole("link", { name: "User management" })).toBeVisible();
    await sidebar.getByText("Close menu").click();
    await expect(sidebar.getByRole("link", { name: "User management" })).toBeHidden();

    await page.locator(".admin-topbar").getByText("Menu").click();
    await sidebar.getByRole("link", { name: "User management" }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(sidebar.getByRole("link", { name: "User management" })).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
