import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { expect, test } from "./fixtures";

const toast = (page: import("@playwright/test").Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

test.describe("admin user management", () => {
  test("creates a user in the dialog, edits it and grants a permission", async ({ page }, testInfo) => {
    const username = uniqueName(testInfo, "edit");
    const email = `${username}@example.com`;
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/users");
    await expect(page.getByRole("heading", { name: /User management/ })).toBeVisible();

    // create: the dialog is chosen by the URL, so it works without JavaScript too
    await page.getByRole("link", { name: "Create user" }).click();
    const create = page.getByRole("dialog", { name: "Create user" });
    await expect(create).toBeVisible();
    await create.getByLabel("Username").fill(username);
    await create.getByLabel("Email").fill(email);
    await create.getByLabel("Password", { exact: true }).fill("first-pass-1");
    await create.getByLabel("First name (optional)").fill("Mei");
    await create.getByRole("checkbox", { name: /^Admin\b/ }).check();
    await create.getByRole("button", { name: "Create user" }).click();
    await expect(toast(page, `User created successfully: ${username}`)).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // find it with the search form
    const search = page.locator(".admin-search");
    await search.getByLabel("Search by username or email").fill(username);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${username}`));
    const row = page.getByRole("row").filter({ hasText: username });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Admin");
    await expect(row).toContainText("never logged in");

    // edit: only changed fields apply, saving needs the confirmation
    await row.getByRole("link", { name: `Edit ${username}` }).click();
    await expect(page.getByRole("heading", { name: `Edit user: ${username}` })).toBeVisible();
    await expect(page.getByText("never logged in")).toBeVisible();
    await page.getByLabel("Phone").fill("+86 138 0013 8000");
    await page.getByLabel("Are you sure you want to save these changes? Modified fields take effect immediately").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, "User updated successfully")).toBeVisible();
    await expect(page.getByLabel("Phone")).toHaveValue("+86 138 0013 8000");

    await page.getByLabel("Are you sure you want to save these changes?").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, "no changes made")).toBeVisible();

    // a taken username is reported on its field (checked on the server)
    await page.getByLabel("Username").fill(E2E_ADMIN.username);
    await page.getByLabel("Are you sure you want to save these changes?").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("This username is already taken")).toBeVisible();

    // the password reset checks its length ('The password must be at least 6 characters long.') and then applies
    await page.getByLabel("New password", { exact: true }).fill("12345");
    await page.getByLabel("Confirm new password").fill("12345");
    await page.getByLabel("Reset this user's password?").check();
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("The password must be at least 6 characters long.")).toBeVisible();
    // the refusal gives the form back without the passwords: typing before they are gone would be lost
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Confirm new password")).toHaveValue("");
    await page.getByLabel("New password", { exact: true }).fill("second-pass-2");
    await page.getByLabel("Confirm new password").fill("second-pass-2");
    await page.getByLabel("Reset this user's password?").check();
    await page.getByRole("button", { name: "Reset password" }).click();
    // hashing a password takes a while on a busy 2-core machine
    await expect(toast(page, "Password reset successfully")).toBeVisible({ timeout: 15_000 });

    // grant a permission through the permission dialog, then take it back
    await page.getByRole("link", { name: "Manage permissions" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage permissions" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Revoke role admin" })).toBeVisible();
    await dialog.getByRole("button", { name: "Assign product.create" }).click();
    await expect(toast(page, "Permission granted successfully")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Revoke product.create" })).toBeVisible();
    await dialog.getByRole("button", { name: "Revoke product.create" }).click();
    await expect(toast(page, "Permission revoked successfully")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Assign product.create" })).toBeVisible();
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("link", { name: "← Back to users" }).first().click();
    await expect(page).toHaveURL(/\/admin\/users$/);
  });

  test("e-mail addresses in the user table never wrap inside a word", async ({ page, request }, testInfo) => {
    // a long address, as real ones are
    const user = await createUserViaApi(request, uniqueName(testInfo, "longaddress"));
    await page.setViewportSize({ width: 1280, height: 800 });
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/users?q=${user.username}`);
    const cell = page.getByRole("row").filter({ hasText: user.username }).locator('td[data-label="Email"]');
    await expect(cell).toHaveText(user.email);
    // the address may break before its "@", nowhere else: each of its two parts sits on
    // one line (one top for all of a part's boxes)
    const parts = await cell.evaluate((td) => {
      const texts: Text[] = [];
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.trim()) texts.push(node as Text);
      return texts.map((text) => {
        const range = document.createRange();
        range.selectNodeContents(text);
        return { text: text.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
      });
    });
    expect(parts.map((part) => part.text).join("")).toBe(user.email);
    for (const part of parts) expect(part.lines, JSON.stringify(parts)).toBe(1);
  });

  test("an ordinary user's permission dialog says no management permissions are needed", async ({ page, request }, testInfo) => {
    const user = await createUserViaApi(request, uniqueName(testInfo, "plain"));
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/users?q=${user.username}`);
    await page.getByRole("link", { name: `Manage permissions of ${user.username}` }).click();
    const dialog = page.getByRole("dialog", { name: "Manage permissions" });
    await expect(dialog.getByText("Ordinary users do not need management permissions.")).toBeVisible();
    await expect(dialog.getByRole("button", { name: /Assign product\./ })).toHaveCount(0);
    // making them an admin opens the direct permissions
    await dialog.getByRole("button", { name: "Assign role admin" }).click();
    await expect(toast(page, "Role assigned successfully")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Assign qc.review" })).toBeVisible();
  });

  test("batch creates users and reports failed lines", async ({ page }, testInfo) => {
    const [a, b, c] = [uniqueName(testInfo, "ba"), uniqueName(testInfo, "bb"), uniqueName(testInfo, "bc")];
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/users");
    await page.getByRole("link", { name: "Batch create" }).click();
    const dialog = page.getByRole("dialog", { name: "Batch create users" });
    const lines = dialog.getByLabel("Users, one per line");

    await dialog.getByRole("button", { name: "Create users" }).click();
    await expect(dialog.getByText("please enter user data")).toBeVisible();

    await lines.fill(
      [`${a},${a}@example.com,secret-1,Ann,Lee,13900000000`, `${b},${b}@example.com,secret-2`, "broken-line,no-email"].join("\n"),
    );
    await dialog.getByRole("button", { name: "Create users" }).click();
    await expect(dialog.getByText("success 2, failed 1")).toBeVisible();
    await expect(dialog.getByText("Line 3 (broken-line): invalid user data format")).toBeVisible();

    await lines.fill(`${c},${c}@example.com,secret-3\n${a},${a}-again@example.com,secret-4`);
    await dialog.getByRole("button", { name: "Create users" }).click();
    await expect(dialog.getByText("success 1, failed 1")).toBeVisible();
    await expect(dialog.getByText(`Line 2 (${a}): This username is already taken`)).toBeVisible();

    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const search = page.locator(".admin-search");
    await search.getByLabel("Search by username or email").fill(`_${testInfo.project.name.replace(/[^a-z]/gi, "")}_`);
    await search.getByRole("button", { name: "Search" }).click();
    for (const name of [a, b, c]) await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(1);
  });

  test("deletes a user after confirmation; one's own account offers no Delete and is refused", async ({ page, request }, testInfo) => {
    const user = await createUserViaApi(request, uniqueName(testInfo, "del"));
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/users?q=${user.username}`);
    await page.getByRole("link", { name: `Delete ${user.username}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete user" });
    await expect(dialog).toContainText(`Delete ${user.username} (${user.email})? This cannot be undone.`);
    // cancelling keeps the user
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: user.username })).toHaveCount(1);

    await page.getByRole("link", { name: `Delete ${user.username}` }).click();
    await page.getByRole("dialog", { name: "Delete user" }).getByRole("button", { name: "Delete user" }).click();
    await expect(toast(page, "User deleted successfully")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/users\\?q=${user.username}$`));
    await expect(page.getByText(`No users match “${user.username}”.`)).toBeVisible();

    // one's own account offers no Delete; the dialog reached by its address still refuses
    await page.goto(`/admin/users?q=${E2E_ADMIN.username}`);
    const own = page.getByRole("row").filter({ hasText: "(you)" });
    await expect(own).toHaveCount(1);
    await expect(own.getByRole("link", { name: /^Delete / })).toHaveCount(0);
    await expect(own.getByRole("link", { name: `Edit ${E2E_ADMIN.username}`, exact: true })).toBeVisible();
    const ownId = /ID (\d+)/.exec((await own.textContent()) ?? "")![1];
    await page.goto(`/admin/users?q=${E2E_ADMIN.username}&modal=delete&userId=${ownId}`);
    await page.getByRole("dialog", { name: "Delete user" }).getByRole("button", { name: "Delete user" }).click();
    await expect(page.getByRole("dialog", { name: "Delete user" }).getByRole("alert")).toHaveText("You cannot delete your own account");
  });

  test("pages through users ten at a time with a five-number window that moves", async ({ page, request }, testInfo) => {
    const prefix = uniqueName(testInfo, "pg");
    const token = await adminToken(request);
    // 61 users: seven pages, the last with one user (made in one batch call: setup only)
    const lines = Array.from({ length: 61 }, (_, i) => `${prefix}${String(i).padStart(2, "0")},${prefix}${i}@example.com,e2e-password-1`);
    const batch = await request.post("/api/admin/users/batch", { headers: { Authorization: `Bearer ${token}` }, data: { users: lines } });
    expect((await batch.json()).data.success).toBe(61);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/users?q=${prefix}`);
    await expect(page.locator("tbody tr")).toHaveCount(10);
    const pager = page.getByRole("navigation", { name: "User pages" });
    const numbers = () => pager.locator("a, span").filter({ hasText: /^\d+$/ }).allTextContents();
    await expect.poll(numbers).toEqual(["1", "2", "3", "4", "5"]);
    await expect(pager.locator("[aria-current=page]")).toHaveText("1");

    // the window follows the current page, centred while it can be
    await pager.getByRole("link", { name: "5", exact: true }).click();
    await expect(page).toHaveURL(/page=5/);
    await expect(pager.locator("[aria-current=page]")).toHaveText("5");
    await expect.poll(numbers).toEqual(["3", "4", "5", "6", "7"]);
    await pager.getByRole("link", { name: "Next ›" }).click();
    await expect(pager.locator("[aria-current=page]")).toHaveText("6");
    await expect.poll(numbers).toEqual(["3", "4", "5", "6", "7"]);
    await pager.getByRole("link", { name: "7", exact: true }).click();
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(pager.getByRole("link", { name: "Next ›" })).toHaveCount(0);
    await pager.getByRole("link", { name: "3", exact: true }).click();
    await expect.poll(numbers).toEqual(["1", "2", "3", "4", "5"]);
    await expect(page.locator(".admin-search input")).toHaveValue(prefix);
  });
});
