import { expect, test } from "./fixtures";
import { adminToken } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm, logoutViaMenu } from "./auth-helpers";
import { latestCode, mailCount, mailLink } from "./mail";

/**
 * A made-up client address, different for every test and run (the e2e server trusts
 * X-Forwarded-For), so failed logins of one test never raise the captcha for another.
 */
const random = (n: number) => Math.floor(Math.random() * n);
const ownAddress = () => `10.${random(256)}.${random(256)}.${random(254) + 1}`;

const unique = (projectName: string) => `${projectName.replace(/\W/g, "")}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe("accounts", () => {
  test("register → verify → login → edit profile → change password → logout", async ({ page }, testInfo) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    const name = `u${unique(testInfo.project.name)}`.slice(0, 24);
    const email = `${name}@example.com`;

    // 1. ask for a code
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send verification code" }).click();
    await expect(page.getByRole("status")).toContainText(`We sent a 6-digit code to ${email}`);
    const code = await latestCode(email);

    // 2. a wrong code is refused with a clear message, the right one creates the account
    await page.getByLabel("Verification code").fill(code === "000000" ? "111111" : "000000");
    await page.getByLabel("Username").fill(name);
    await page.getByLabel("Password").fill("first-pass");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Invalid or expired verification code").first()).toBeVisible();

    await page.getByLabel("Verification code").fill(code);
    await page.getByLabel("Username").fill(name);
    await page.getByLabel("Password").fill("first-pass");
    await page.getByRole("button", { name: "Create account" }).click();
    // the verified code logs the new account in: no second login
    await expect(page.getByRole("status")).toContainText("Your e-mail address is verified and you are logged in");
    await expect(page.locator("details.account-menu summary")).toContainText(name);

    // 3. log out and in again by username
    await logoutViaMenu(page);
    await loginViaForm(page, name, "first-pass");
    await expect(page.locator("details.account-menu summary")).toContainText(name);

    // 4. edit the profile
    await page.goto("/profile");
    await page.getByLabel("Phone (optional)").fill("+86 138 0000 0000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toContainText("Profile updated successfully.");
    await expect(page.getByLabel("Phone (optional)")).toHaveValue("+86 138 0000 0000");

    // an invalid username is explained on the field and nothing is saved
    await page.getByLabel("Username").fill("a");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Username must be 3 to 30 characters")).toBeVisible();
    await page.goto("/profile");
    await expect(page.getByLabel("Username")).toHaveValue(name);

    // 5. change the password (wrong current password first)
    await page.getByLabel("Current password", { exact: true }).fill("not-my-pass");
    await page.getByLabel("New password", { exact: true }).fill("second-pass");
    await page.getByLabel("Repeat the new password").fill("second-pass");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Current password is incorrect")).toBeVisible();

    await page.getByLabel("Current password", { exact: true }).fill("first-pass");
    await page.getByLabel("New password", { exact: true }).fill("second-pass");
    await page.getByLabel("Repeat the new password").fill("second-pass");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Password changed");

    // 6. log out, then the old password fails and the new one works
    await logoutViaMenu(page);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile/);
    await page.getByLabel("Email or username").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("first-pass");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Invalid email/username or password")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("second-pass");
    await page.getByRole("button", { name: "Log in" }).click();
    // back to the page that asked for the login
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("sign-up from a product page: the mailed link opens step 2, and the new account lands back on the page, logged in", async ({
    page,
    request,
  }, testInfo) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    const name = `r${unique(testInfo.project.name)}`.slice(0, 24);
    const email = `${name}@example.com`;
    const created = await request.post("/api/admin/products", {
      headers: { Authorization: `Bearer ${await adminToken(request)}` },
      data: { name: `Sign-up tote ${name}`, price_cny: 30 },
    });
    expect(created.status(), await created.text()).toBe(201);
    const productPath = new URL((await created.json()).data.url, "http://site.invalid").pathname;
    await page.goto(productPath);
    await page.locator("header").getByRole("link", { name: "Register" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/register" && url.searchParams.get("redirectTo") === productPath);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send verification code" }).click();
    await expect(page.getByRole("status")).toContainText(`We sent a 6-digit code to ${email}`);
    const code = await latestCode(email);

    // the mail's link is the second step with the address and the way back in it
    const link = new URL(await mailLink(email, "Enter the code and finish"));
    expect(link.pathname).toBe("/register");
    expect(Object.fromEntries(link.searchParams)).toEqual({ step: "2", email, redirectTo: productPath });
    await page.goto(link.pathname + link.search);
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await page.getByLabel("Verification code").fill(code);
    await page.getByLabel("Username").fill(name);
    await page.getByLabel("Password").fill("signup-pass");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(new URL(productPath, page.url()).href);
    await expect(page.getByRole("status")).toContainText("you are logged in");
    await expect(page.locator("details.account-menu summary")).toContainText(name);
  });

  test("forgot password → code by mail → reset → log in with the new password", async ({ page, request }, testInfo) => {
    const name = `f${unique(testInfo.project.name)}`.slice(0, 24);
    const email = `${name}@example.com`;
    // an account made through the public API (the same services as the pages)
    const sent = await request.post("/api/auth/send-registration-code", { data: { email } });
    expect(sent.status()).toBe(200);
    const registerCode = await latestCode(email);
    const registered = await request.post("/api/auth/register", {
      data: { username: name, email, password: "old-pass", code: registerCode },
    });
    expect(registered.status()).toBe(201);
    const mailsBefore = mailCount(email);

    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset code" }).click();
    await expect(page).toHaveURL(/\/reset-password\?email=/);
    await expect(page.getByRole("status")).toContainText("If an account exists for this email");
    const code = await latestCode(email, mailsBefore);

    await page.getByLabel("Reset code").fill(code);
    await page.getByLabel("New password", { exact: true }).fill("new-pass-1");
    await page.getByLabel("Repeat the new password").fill("new-pass-2");
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();

    await page.getByLabel("Reset code").fill(code);
    await page.getByLabel("New password", { exact: true }).fill("new-pass-1");
    await page.getByLabel("Repeat the new password").fill("new-pass-1");
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page).toHaveURL(/\/login\?email=/);
    await expect(page.getByLabel("Email or username")).toHaveValue(email);

    await loginViaForm(page, email, "new-pass-1");
  });

  test("an unknown e-mail gets the same answer on forgot password and no mail", async ({ page }, testInfo) => {
    const email = `nobody-${unique(testInfo.project.name)}@example.com`;
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset code" }).click();
    await expect(page.getByRole("status")).toContainText("If an account exists for this email");
    expect(mailCount(email)).toBe(0);
  });

  test("login errors are shown on the form without revealing accounts", async ({ page }) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    await page.goto("/login");
    await page.getByRole("button", { name: "Log in" }).click();
    // with JS the browser/conform stops the empty form; without JS the server answers
    await expect(page.getByText("Email or username is required")).toBeVisible();
    await page.getByLabel("Email or username").fill("nobody@example.com");
    await page.getByLabel("Password", { exact: true }).fill("whatever");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Invalid email/username or password")).toBeVisible();
  });

  test("on a 360 px phone, the message of sign-up's step 2 covers none of its fields", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 360, height: 640 });
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    const email = `p${unique(testInfo.project.name)}`.slice(0, 24) + "@example.com";
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send verification code" }).click();
    const toastBox = page.getByRole("status").filter({ hasText: `We sent a 6-digit code to ${email}` });
    await expect(toastBox).toBeVisible();
    const message = (await toastBox.boundingBox())!;
    for (const label of ["Verification code", "Username", "Password"]) {
      const field = (await page.getByLabel(label, { exact: true }).boundingBox())!;
      const overlaps =
        message.x < field.x + field.width &&
        field.x < message.x + message.width &&
        message.y < field.y + field.height &&
        field.y < message.y + message.height;
      expect(overlaps, label).toBe(false);
    }
  });

  test("a logged-in visitor is sent away from /login and /register", async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/register");
    await expect(page).toHaveURL(/\/$/);
  });

  test("after 5 failed logins from one address the form demands a captcha", async ({ page }, testInfo) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    await page.goto("/login");
    // failures for a made-up account: the address collects them (the admin account does not)
    const stranger = `nobody-${unique(testInfo.project.name)}@example.com`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel("Email or username").fill(stranger);
      await page.getByLabel("Password", { exact: true }).fill(`wrong-${attempt}`);
      // wait for each answer: a click while the form is still sending is ignored
      await Promise.all([
        page.waitForResponse((response) => response.url().includes("/login") && response.request().method() === "POST"),
        page.getByRole("button", { name: "Log in" }).click(),
      ]);
      await expect(page.getByText("Invalid email/username or password")).toBeVisible();
    }
    await expect(page.getByRole("img", { name: "Captcha image" })).toBeVisible();
    // from this address even the right password is refused without the captcha's characters
    await page.getByLabel("Email or username").fill(E2E_ADMIN.email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
    await page.getByLabel("Characters in the image").fill("zzzzz");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("The characters did not match the image. Please try again.")).toBeVisible();
    await expect(page.getByRole("img", { name: "Captcha image" })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);

    // an image one cannot read: "New image" brings another, keeps what was typed, tries nothing
    const before = await page.locator('input[name="captchaId"]').inputValue();
    await page.getByLabel("Email or username").fill(E2E_ADMIN.email);
    await page.getByRole("button", { name: "New image" }).click();
    await expect(page.locator('input[name="captchaId"]')).not.toHaveValue(before);
    await expect(page.getByRole("img", { name: "Captcha image" })).toBeVisible();
    await expect(page.getByLabel("Email or username")).toHaveValue(E2E_ADMIN.email);
    await expect(page.getByText("The characters did not match the image. Please try again.")).toHaveCount(0);
    await expect(page).toHaveURL(/\/login/);
  });
});
