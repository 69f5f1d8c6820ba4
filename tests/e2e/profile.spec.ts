import path from "node:path";
import { expect, test, withDatabase } from "./fixtures";
import { loginViaForm } from "./auth-helpers";
import { latestCode } from "./mail";

const files = path.join(import.meta.dirname, "files");
/** the fields that prove the account holder when the e-mail changes */
const EMAIL_PASSWORD = "Current password (only to change your e-mail)";
const EMAIL_CODE = "Code sent to your current address";

/** The error shown beside the field labelled `label`. */
const fieldError = (page: import("@playwright/test").Page, label: string) =>
  page.locator(".field", { has: page.getByLabel(label, { exact: true }) }).locator(".field__error");
const unique = (projectName: string) => `${projectName.replace(/\W/g, "")}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A verified account made through the public API, as a visitor would make it. */
async function registerAccount(request: import("@playwright/test").APIRequestContext, name: string, password: string) {
  const email = `${name}@example.com`;
  expect((await request.post("/api/auth/send-registration-code", { data: { email } })).status()).toBe(200);
  const code = await latestCode(email);
  expect((await request.post("/api/auth/register", { data: { username: name, email, password, code } })).status()).toBe(201);
  return email;
}

test.describe("profile", () => {
  test("upload an avatar; a file that is not an image is refused", async ({ page, request }, testInfo) => {
    const name = `a${unique(testInfo.project.name)}`.slice(0, 24);
    await registerAccount(request, name, "avatar-pass");
    await loginViaForm(page, name, "avatar-pass", "/profile");
    await expect(page).toHaveURL(/\/profile$/);

    await page.getByLabel(/Choose an image/).setInputFiles(path.join(files, "not-an-image.txt"));
    await page.getByRole("button", { name: "Upload avatar" }).click();
    await expect(page.getByText("Please select an image file")).toBeVisible();

    await page.getByLabel(/Choose an image/).setInputFiles(path.join(files, "avatar.png"));
    await page.getByRole("button", { name: "Upload avatar" }).click();
    await expect(page.getByRole("status")).toContainText("Your new avatar is saved.");
    const avatar = page.getByRole("img", { name: "Your avatar" });
    await expect(avatar).toHaveAttribute("src", /^\/uploads\/avatars\/.+\.webp$/);
    const src = await avatar.getAttribute("src");
    const response = await request.get(src!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/webp");
  });

  test("change the e-mail address: it applies only after the code sent to the new address", async ({ page, request }, testInfo) => {
    const name = `e${unique(testInfo.project.name)}`.slice(0, 24);
    const oldEmail = await registerAccount(request, name, "email-pass");
    const newEmail = `${name}-new@example.com`;
    await loginViaForm(page, oldEmail, "email-pass", "/profile");

    await page.getByLabel("Email").fill(newEmail);
    await page.getByLabel(EMAIL_PASSWORD).fill("email-pass");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toContainText(`Enter the code we sent to ${newEmail}`);
    await expect(page.getByText(`Waiting for confirmation of ${newEmail}`)).toBeVisible();
    // the old address stays in use until the code is entered
    await expect(page.getByLabel("Email")).toHaveValue(oldEmail);

    const code = await latestCode(newEmail);
    await page.getByLabel("Code", { exact: true }).fill(code);
    await page.getByRole("button", { name: "Confirm new email" }).click();
    await expect(page.getByRole("status")).toContainText("Your e-mail address has been changed.");
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
  });

  test("changing the e-mail asks for the current password: a missing or wrong one is explained beside it, the right one starts the change", async ({
    page,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    const name = `p${unique(testInfo.project.name)}`.slice(0, 24);
    const oldEmail = await registerAccount(request, name, "proof-pass");
    const newEmail = `${name}-new@example.com`;
    await loginViaForm(page, oldEmail, "proof-pass", "/profile");
    const passwordError = fieldError(page, EMAIL_PASSWORD);

    // other changes need no password
    await page.getByLabel("Phone (optional)").fill("+86 139 0000 0000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toContainText("Profile updated successfully.");

    await page.getByLabel("Email").fill(newEmail);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(passwordError).toHaveText("Current password is required to change your email");
    // what was typed stays, nothing was saved
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
    await expect(page.getByLabel("Phone (optional)")).toHaveValue("+86 139 0000 0000");
    await expect(page.getByText(`Waiting for confirmation of`)).toHaveCount(0);

    await page.getByLabel(EMAIL_PASSWORD).fill("not-my-pass");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(passwordError).toHaveText("Current password is incorrect");
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
    // the server never sends a password back into the page (with JavaScript the browser keeps what was typed)
    if (!javaScriptEnabled) await expect(page.getByLabel(EMAIL_PASSWORD)).toHaveValue("");

    await page.getByLabel(EMAIL_PASSWORD).fill("proof-pass");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toContainText(`Enter the code we sent to ${newEmail}`);
    await expect(page.getByText(`Waiting for confirmation of ${newEmail}`)).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(oldEmail);
  });

  test("an account without a password changes its e-mail with a code sent to the current address first", async ({
    page,
    request,
  }, testInfo) => {
    const name = `g${unique(testInfo.project.name)}`.slice(0, 24);
    const oldEmail = await registerAccount(request, name, "soon-none");
    const newEmail = `${name}-new@example.com`;
    await loginViaForm(page, oldEmail, "soon-none", "/profile");
    // the account now has no password, as one made by Google sign-in
    withDatabase((db) => db.prepare("UPDATE users SET password_hash = NULL WHERE email = ?").run(oldEmail));
    await page.goto("/profile");
    await expect(page.getByLabel(EMAIL_PASSWORD)).toHaveCount(0);
    await expect(page.getByText("To change your e-mail address, we first send a code to the current one.")).toBeVisible();

    await page.getByLabel("Email").fill(newEmail);
    await page.getByRole("button", { name: "Save changes" }).click();
    const codeError = fieldError(page, EMAIL_CODE);
    await expect(codeError).toHaveText(`We sent a code to ${oldEmail}: enter it to change your email.`);
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
    const code = await latestCode(oldEmail, 1);

    await page.getByLabel(EMAIL_CODE).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(codeError).toHaveText("Invalid or expired verification code");
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);

    await page.getByLabel(EMAIL_CODE).fill(code);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toContainText(`Enter the code we sent to ${newEmail}`);
    await expect(page.getByText(`Waiting for confirmation of ${newEmail}`)).toBeVisible();

    await page.getByLabel("Code", { exact: true }).fill(await latestCode(newEmail));
    await page.getByRole("button", { name: "Confirm new email" }).click();
    await expect(page.getByRole("status")).toContainText("Your e-mail address has been changed.");
    await expect(page.getByLabel("Email")).toHaveValue(newEmail);
  });

  test("news and offers by e-mail: the profile shows and changes the same choice one-click unsubscribe sets", async ({
    page,
    request,
  }, testInfo) => {
    const name = `m${unique(testInfo.project.name)}`.slice(0, 24);
    const email = await registerAccount(request, name, "mail-pass");
    const unsubscribed = () =>
      withDatabase(
        (db) =>
          (
            db
              .prepare("SELECT count(*) AS n FROM email_unsubscribes WHERE user_id = (SELECT id FROM users WHERE email = ?)")
              .get(email) as { n: number }
          ).n,
      );
    await loginViaForm(page, email, "mail-pass", "/profile");
    const choice = page.getByLabel("Send me news and offers by e-mail");
    await expect(choice).toBeChecked();

    await choice.uncheck();
    await page.getByRole("button", { name: "Save e-mail choice" }).click();
    await expect(page.getByRole("status")).toContainText("You will get no more news or offers by e-mail.");
    await expect(choice).not.toBeChecked();
    expect(unsubscribed()).toBe(1);

    await page.reload();
    await expect(choice).not.toBeChecked();
    await choice.check();
    await page.getByRole("button", { name: "Save e-mail choice" }).click();
    await expect(page.getByRole("status")).toContainText("You will get our news and offers by e-mail.");
    await expect(choice).toBeChecked();
    expect(unsubscribed()).toBe(0);
  });

  test("an unverified account is asked to verify at login and can verify with a mailed code", async ({ page, request }, testInfo) => {
    const name = `v${unique(testInfo.project.name)}`.slice(0, 24);
    const email = await registerAccount(request, name, "verify-pass");
    // the account's address stops counting as verified (as after an admin changes it)
    withDatabase((db) => db.prepare("UPDATE users SET email_verified = 0 WHERE email = ?").run(email));

    await page.goto("/login");
    await page.getByLabel("Email or username").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("verify-pass");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toContainText("Please verify your email address before logging in.");
    await page.getByRole("button", { name: "Send me a verification code" }).click();
    await expect(page).toHaveURL(/\/verify-email\?email=/);
    const code = await latestCode(email, 1);

    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Verify email" }).click();
    await expect(page.getByRole("status")).toContainText("Email verified. You can log in now.");
    await loginViaForm(page, email, "verify-pass");
  });

  test("the profile page asks visitors to log in first", async ({ page }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
  });
});
