/** Logging in through the real login form (works with JavaScript on and off). */
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export const E2E_ADMIN = { email: "admin@example.com", password: "admin-password-e2e", username: "admin" };

export async function loginViaForm(page: Page, identifier: string, password: string, redirectTo?: string) {
  await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login");
  await page.getByLabel("Email or username").fill(identifier);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Welcome back" })).toBeVisible();
}

export async function logoutViaMenu(page: Page) {
  await page.locator("details.account-menu > summary").click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
}
