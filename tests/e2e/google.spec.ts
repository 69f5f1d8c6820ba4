import { expect, test } from "./fixtures";
import { loginViaForm, logoutViaMenu } from "./auth-helpers";

const googleUrl = () => process.env.E2E_GOOGLE_URL!;
const tag = (projectName: string) => `${projectName.replace(/\W/g, "")}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function nextGoogleProfile(request: import("@playwright/test").APIRequestContext, profile: Record<string, unknown>) {
  // no picture: this machine cannot load Google's image hosts
  const response = await request.post(`${googleUrl()}/__control/next-profile`, { data: { picture: "", ...profile } });
  expect(response.ok()).toBe(true);
}

test.describe("Google sign-in (fake provider on 127.0.0.1)", () => {
  test("a new Google user gets an account and is signed in; the next time the same account is used", async ({
    page,
    request,
  }, testInfo) => {
    const id = tag(testInfo.project.name);
    const profile = {
      sub: `sub-${id}`,
      email: `g-${id}@gmail.example`,
      email_verified: true,
      name: `Gee ${id}`.slice(0, 20),
      given_name: "Gee",
      family_name: "User",
    };
    await nextGoogleProfile(request, profile);
    await page.goto("/login?redirectTo=%2Fprofile");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("status")).toContainText("Welcome");
    await expect(page.getByLabel("Email")).toHaveValue(profile.email);
    // a Google-only account has no password yet: the profile offers to set one
    await expect(page.getByRole("heading", { name: "Set a password" })).toBeVisible();
    await logoutViaMenu(page);

    await nextGoogleProfile(request, profile);
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page.getByRole("status")).toContainText("Welcome");
    await page.goto("/profile");
    await expect(page.getByLabel("Email")).toHaveValue(profile.email);
  });

  test("a verified Google address links to the existing account with that address", async ({ page, request }, testInfo) => {
    const id = tag(testInfo.project.name);
    const email = `link-${id}@example.com`;
    // an existing account, created by the admin through the API
    const login = await request.post("/api/auth/login", { data: { email: "admin@example.com", password: "admin-password-e2e" } });
    const { accessToken } = await login.json();
    const created = await request.post("/api/admin/users", {
      headers: { Authorization: `Bearer ${accessToken}` },
      data: { username: `link${id}`.slice(0, 28), email, password: "link-pass" },
    });
    expect(created.status()).toBe(201);

    await nextGoogleProfile(request, { sub: `sub-${id}`, email, email_verified: true, name: "Linked" });
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page.getByRole("status")).toContainText(`Welcome, link${id}`.slice(0, 37));
    await logoutViaMenu(page);
    // the password keeps working too
    await loginViaForm(page, email, "link-pass");
  });

  test("an unverified Google address never takes over an existing account", async ({ page, request }, testInfo) => {
    const id = tag(testInfo.project.name);
    const email = `nolink-${id}@example.com`;
    const login = await request.post("/api/auth/login", { data: { email: "admin@example.com", password: "admin-password-e2e" } });
    const { accessToken } = await login.json();
    expect(
      (
        await request.post("/api/admin/users", {
          headers: { Authorization: `Bearer ${accessToken}` },
          data: { username: `nolink${id}`.slice(0, 28), email, password: "nolink-pass" },
        })
      ).status(),
    ).toBe(201);

    await nextGoogleProfile(request, { sub: `sub-${id}`, email, email_verified: false, name: "Intruder" });
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("alert")).toContainText("Google login failed.");
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  });

  test("a callback with a forged state is refused", async ({ page }) => {
    await page.goto("/auth/google/callback?state=forged&code=whatever");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("alert")).toContainText("Google login failed.");
  });
});
