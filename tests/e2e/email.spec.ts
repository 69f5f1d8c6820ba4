/**
 * E-mail marketing in the browser, with JavaScript on and off (projects js and no-js):
 * templates, campaigns from creation to completed progress, pause and resume, schedules,
 * statistics, the built-in designs, and the unsubscribe page. The e2e server has no
 * SMTP_URL, so campaign mail lands in $DATA_DIR/outbox as .eml files (the product's own
 * fallback); the tests read the unsubscribe links there.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test, withDatabase } from "./fixtures";

const BASE = "/admin/email-management";
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

/** Waits for a campaign page to show `status`: with JavaScript the page refreshes itself, without it the test reloads like a person would. */
async function waitForStatus(page: Page, testInfo: TestInfo, status: RegExp, timeout = 20_000) {
  const heading = page.getByRole("heading", { level: 2 });
  if (testInfo.project.name === "js") {
    await expect(heading).toContainText(status, { timeout });
    return;
  }
  const deadline = Date.now() + timeout;
  while (!status.test((await heading.textContent()) ?? "")) {
    if (Date.now() > deadline) throw new Error(`the campaign never showed ${status}`);
    const refresh = page.getByRole("link", { name: "Refresh now" });
    if (await refresh.count()) await refresh.click();
    else await page.reload();
  }
}

async function createTemplate(page: Page, name: string) {
  await page.goto(BASE);
  await page.getByRole("link", { name: "New template" }).click();
  const dialog = page.getByRole("dialog", { name: "New template" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Subject").fill("News for {{userName}}");
  await dialog
    .getByLabel("HTML content")
    .fill('<h1>Hello {{userName}}</h1><p>Fresh QC photos at {{siteName}}.</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>');
  await dialog.getByRole("button", { name: "Create template" }).click();
  await expect(toast(page, `Template created: ${name}`)).toBeVisible();
}

/** The users a test adds to the audience (inserted directly: the flows under test are the campaign's, not sign-up's). */
function insertShoppers(prefix: string, count: number): number[] {
  return withDatabase((db) => {
    const insert = db.prepare("INSERT INTO users (username, email, email_verified) VALUES (?, ?, 1)");
    return Array.from({ length: count }, (_, n) => Number(insert.run(`${prefix}_${n}`, `${prefix}-${n}@example.test`).lastInsertRowid));
  });
}

function removeShoppers(ids: number[]) {
  withDatabase((db) => {
    const remove = db.prepare("DELETE FROM users WHERE id = ?");
    db.transaction(() => ids.forEach((id) => remove.run(id)))();
  });
}

test.describe("email marketing", () => {
  test.beforeEach(async ({ page }) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, BASE);
  });

  test("templates: create, edit, the explanation when a campaign uses one, delete", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "tpl");
    await createTemplate(page, name);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("News for {{userName}}");
    await expect(row).toContainText("{{unsubscribeUrl}}");

    // a mistake is named on its field, nothing saved
    await row.getByRole("link", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit template" });
    await edit.getByLabel("Subject").fill("Hi {{frist_name}}");
    await edit.getByRole("button", { name: "Save template" }).click();
    await expect(page.getByRole("dialog", { name: "Edit template" }).getByText("Unknown variable {{frist_name}}")).toBeVisible();
    await page.getByRole("dialog", { name: "Edit template" }).getByLabel("Subject").fill("Hi {{userName}}");
    await page.getByRole("dialog", { name: "Edit template" }).getByRole("button", { name: "Save template" }).click();
    await expect(toast(page, `Template updated: ${name}`)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Hi {{userName}}");

    // in use: the delete dialog says why not and what to do
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("link", { name: `New campaign with ${name}` })
      .click();
    const create = page.getByRole("dialog", { name: "New campaign" });
    await create.getByLabel("Name").fill(`${name} campaign`);
    await create.getByLabel("Subject").fill("Subject");
    await expect(create.getByLabel("Template (optional)")).toHaveValue(/\d+/);
    await create.getByRole("button", { name: "Create campaign" }).click();
    await expect(toast(page, `Campaign created: ${name} campaign`)).toBeVisible();

    await page.goto(BASE);
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("link", { name: `Delete ${name}` })
      .click();
    const blocked = page.getByRole("dialog", { name: "Delete template" });
    await expect(blocked.getByRole("alert")).toContainText(`cannot be deleted: a campaign uses it (${name} campaign)`);
    await expect(blocked.getByRole("button", { name: "Delete template" })).toHaveCount(0);

    // delete the campaign, then the template goes
    await page.goto(`${BASE}/campaigns`);
    await page
      .getByRole("row")
      .filter({ hasText: `${name} campaign` })
      .getByRole("link", { name: `Delete ${name} campaign` })
      .click();
    await page.getByRole("dialog", { name: "Delete campaign" }).getByRole("button", { name: "Delete campaign" }).click();
    await expect(toast(page, "Campaign deleted")).toBeVisible();
    await page.goto(BASE);
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("link", { name: `Delete ${name}` })
      .click();
    await page.getByRole("dialog", { name: "Delete template" }).getByRole("button", { name: "Delete template" }).click();
    await expect(toast(page, "Template deleted")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  });

  test("a campaign from creation to completed, with progress and statistics", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "camp");
    const shoppers = insertShoppers(name, 5);
    try {
      await createTemplate(page, `${name} template`);
      await page.getByRole("link", { name: "Campaigns", exact: true }).click();
      await page.getByRole("link", { name: "New campaign" }).click();
      const create = page.getByRole("dialog", { name: "New campaign" });
      // the spec's checks happen on the server: the missing subject is named
      await create.getByLabel("Name").fill(name);
      await create.getByRole("button", { name: "Create campaign" }).click();
      await expect(page.getByRole("dialog", { name: "New campaign" }).getByText("Subject is required")).toBeVisible();
      const retry = page.getByRole("dialog", { name: "New campaign" });
      await retry.getByLabel("Subject").fill("Hello {{userName}}");
      await retry.getByLabel("Template (optional)").selectOption({ label: `${name} template` });
      await retry.getByRole("button", { name: "Create campaign" }).click();
      await expect(toast(page, `Campaign created: ${name}`)).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 })).toContainText(`${name} Draft`);
      await expect(page.frameLocator("iframe.email-preview").getByRole("heading", { name: `Hello ${E2E_ADMIN.username}` })).toBeVisible();

      // edit while a draft
      await page.getByRole("link", { name: `Edit ${name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit campaign" });
      await edit.getByLabel("Subject").fill("Hello again {{userName}}");
      await edit.getByRole("button", { name: "Save campaign" }).click();
      await expect(toast(page, `Campaign updated: ${name}`)).toBeVisible();

      // execute: a confirmation that says what will happen
      await page.getByRole("link", { name: `Execute ${name}` }).click();
      const confirm = page.getByRole("dialog", { name: "Execute campaign" });
      await expect(confirm).toContainText(`Send “${name}” now to`);
      await confirm.getByRole("button", { name: "Send now" }).click();
      await expect(toast(page, "Campaign is sending")).toBeVisible();
      await waitForStatus(page, testInfo, /Completed/);
      const progress = page.locator(".email-campaign__progress");
      await expect(progress).toContainText("Complete");
      await expect(progress.getByTestId("progress-failed")).toHaveText("0 failed");
      await expect(progress.getByTestId("progress-pending")).toHaveText("0 pending");
      const sent = Number((await progress.getByTestId("progress-sent").textContent())!.split(" ")[0]);
      expect(sent).toBeGreaterThanOrEqual(6); // the 5 shoppers and the admin, at least
      await expect(page.getByRole("link", { name: `Execute ${name}` })).toHaveCount(0);
      await expect(page.getByRole("row").filter({ hasText: "#1" })).toContainText("completed");

      // statistics
      await page.getByRole("link", { name: "Statistics" }).click();
      const emailsSent = Number(await page.getByTestId("emails-sent").locator("strong").textContent());
      expect(emailsSent).toBeGreaterThanOrEqual(sent);
      await expect(page.getByTestId("success-rate")).toContainText(/\d+\.\d%/);
      const today = new Date().toISOString().slice(0, 10);
      const todayRow = page.getByRole("row").filter({ hasText: today });
      expect(Number(await todayRow.getByRole("cell").nth(1).textContent())).toBeGreaterThanOrEqual(sent);
      await expect(page.getByRole("figure")).toContainText(today.slice(5));
    } finally {
      removeShoppers(shoppers);
    }
  });

  test("pause a sending campaign, then resume it; it completes", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "pause");
    // enough recipients to still be sending when the button is pressed (50 a second by default)
    const shoppers = insertShoppers(name, 400);
    try {
      await page.goto(`${BASE}/campaigns?modal=create`);
      const create = page.getByRole("dialog", { name: "New campaign" });
      await create.getByLabel("Name").fill(name);
      await create.getByLabel("Subject").fill("Slow news");
      await create.getByText("Body for a campaign without a template").click();
      await create.getByLabel("HTML body").fill("<p>Slow news for {{userName}}</p>");
      await create.getByRole("button", { name: "Create campaign" }).click();
      await expect(toast(page, `Campaign created: ${name}`)).toBeVisible();
      await page.getByRole("link", { name: `Execute ${name}` }).click();
      await page.getByRole("dialog", { name: "Execute campaign" }).getByRole("button", { name: "Send now" }).click();
      await expect(toast(page, "Campaign is sending")).toBeVisible();

      await page.getByRole("button", { name: `Pause ${name}` }).click();
      await expect(toast(page, "Campaign paused")).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 })).toContainText("Paused");
      await expect(page.getByRole("status").filter({ hasText: `Paused by ${E2E_ADMIN.username}` })).toBeVisible();
      const pending = Number((await page.getByTestId("progress-pending").textContent())!.split(" ")[0]);
      expect(pending).toBeGreaterThan(0);
      await expect(page.getByRole("button", { name: `Pause ${name}` })).toHaveCount(0);

      await page.getByRole("button", { name: `Resume ${name}` }).click();
      await expect(toast(page, "Campaign resumed")).toBeVisible();
      await waitForStatus(page, testInfo, /Completed/, 30_000);
      await expect(page.getByTestId("progress-pending")).toHaveText("0 pending");
      const counts = withDatabase(
        (db) =>
          db
            .prepare(
              "SELECT count(*) AS rows, count(DISTINCT user_id) AS users, sum(s.status = 'sent') AS sent FROM email_sends s JOIN email_campaigns c ON c.id = s.campaign_id WHERE c.name = ?",
            )
            .get(name) as { rows: number; users: number; sent: number },
      );
      expect(counts.rows).toBe(counts.users);
      expect(counts.sent).toBe(counts.rows);
    } finally {
      removeShoppers(shoppers);
    }
  });

  test("schedule a campaign for later, then take it back to draft", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "later");
    await page.goto(`${BASE}/campaigns?modal=create`);
    const create = page.getByRole("dialog", { name: "New campaign" });
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Subject").fill("Tomorrow");
    await create.getByText("Body for a campaign without a template").click();
    await create.getByLabel("HTML body").fill("<p>Tomorrow</p>");
    await create.getByLabel("At a set time").check();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    await create.getByLabel("Scheduled time (UTC)").fill(tomorrow);
    await create.getByRole("button", { name: "Create campaign" }).click();
    await expect(toast(page, `Campaign created: ${name}`)).toBeVisible();
    await page.getByRole("link", { name: `Execute ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: "Execute campaign" });
    await expect(confirm).toContainText(`${tomorrow.replace("T", " ")} UTC`);
    await confirm.getByRole("button", { name: "Schedule" }).click();
    await expect(toast(page, "Campaign scheduled")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toContainText("Scheduled");
    await page.getByRole("button", { name: `Take ${name} back to draft` }).click();
    await expect(toast(page, "Campaign is a draft again")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toContainText("Draft");
  });

  test.describe("an admin in Shanghai", () => {
    test.use({ timezoneId: "Asia/Shanghai" });

    test("schedules at 14:10 their time (with JavaScript, the browser's zone; without, the site's)", async ({ page }, testInfo) => {
      const name = uniqueName(testInfo, "zoned");
      // the first back-office page tells the server the browser's zone, for the next ones
      await page.goto(`${BASE}/campaigns`);
      await page.goto(`${BASE}/campaigns?modal=create`);
      const create = page.getByRole("dialog", { name: "New campaign" });
      await create.getByLabel("Name").fill(name);
      await create.getByLabel("Subject").fill("At two");
      await create.getByText("Body for a campaign without a template").click();
      await create.getByLabel("HTML body").fill("<p>At two</p>");
      await create.getByLabel("At a set time").check();
      const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const js = testInfo.project.name === "js";
      await create.getByLabel(js ? "Scheduled time (Asia/Shanghai, UTC+8)" : "Scheduled time (UTC)").fill(`${day}T14:10`);
      await create.getByRole("button", { name: "Create campaign" }).click();
      await expect(toast(page, `Campaign created: ${name}`)).toBeVisible();
      const stored = withDatabase((db) => db.prepare("SELECT scheduled_at FROM email_campaigns WHERE name = ?").get(name)) as {
        scheduled_at: string;
      };
      expect(stored.scheduled_at).toBe(js ? `${day}T06:10:00.000Z` : `${day}T14:10:00.000Z`);
      await page.getByRole("link", { name: `Execute ${name}` }).click();
      await expect(page.getByRole("dialog", { name: "Execute campaign" })).toContainText(
        js ? `${day} 14:10 Asia/Shanghai` : `${day} 14:10 UTC`,
      );
    });
  });

  test("“Send now” in the new-campaign dialog sends at once: no draft left to execute", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "now");
    const shoppers = insertShoppers(name, 3);
    try {
      await page.goto(`${BASE}/campaigns?modal=create`);
      const create = page.getByRole("dialog", { name: "New campaign" });
      await create.getByLabel("Name").fill(name);
      await create.getByLabel("Subject").fill("Right now, {{userName}}");
      await create.getByText("Body for a campaign without a template").click();
      await create.getByLabel("HTML body").fill("<p>Now for {{userName}}</p>");
      if (testInfo.project.name === "js")
        await expect(create.getByText(/^Sends at once to \d+ recipients \(all subscribers\)\.$/)).toBeVisible();
      await create.getByRole("button", { name: /send now/i }).click();
      await expect(toast(page, `Campaign is sending: ${name}`)).toBeVisible();
      await expect(page.getByRole("link", { name: `Execute ${name}` })).toHaveCount(0);
      await waitForStatus(page, testInfo, /Completed/);
      const sent = withDatabase(
        (db) =>
          db
            .prepare(
              "SELECT count(*) AS n FROM email_sends s JOIN email_campaigns c ON c.id = s.campaign_id WHERE c.name = ? AND s.status = 'sent' AND s.email LIKE ?",
            )
            .get(name, `${name}-%`) as { n: number },
      );
      expect(sent.n).toBe(3);

      // a start that cannot happen (a time already past) leaves nothing behind and says why on the field
      const late = `${name}-late`;
      await page.goto(`${BASE}/campaigns?modal=create`);
      const again = page.getByRole("dialog", { name: "New campaign" });
      await again.getByLabel("Name").fill(late);
      await again.getByLabel("Subject").fill("Too late");
      await again.getByText("Body for a campaign without a template").click();
      await again.getByLabel("HTML body").fill("<p>Late</p>");
      await again.getByLabel("At a set time").check();
      await again.getByLabel("Scheduled time (UTC)").fill(new Date(Date.now() - 3_600_000).toISOString().slice(0, 16));
      await again.getByRole("button", { name: testInfo.project.name === "js" ? "Save and schedule" : "Send now / schedule" }).click();
      const refused = page.getByRole("dialog", { name: "New campaign" });
      await expect(refused.getByText("Choose a time in the future")).toBeVisible();
      await expect(refused.getByLabel("Name")).toHaveValue(late);
      expect(withDatabase((db) => db.prepare("SELECT count(*) AS n FROM email_campaigns WHERE name = ?").get(late))).toEqual({ n: 0 });
    } finally {
      removeShoppers(shoppers);
    }
  });

  test("send a test of a template to myself: from the list, and from the editor that stays open", async ({ page }, testInfo) => {
    const name = uniqueName(testInfo, "test");
    await createTemplate(page, name);
    const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
    const testMails = () =>
      (fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : [])
        .map((file) => fs.readFileSync(path.join(outbox, file), "utf8"))
        .filter((raw) => /^To: .*<?admin@example\.com>?\r?$/m.test(raw) && /^Subject: \[Test\] /m.test(raw));
    const before = testMails().length;

    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("button", { name: `Send a test of ${name} to me` })
      .click();
    await expect(toast(page, `Test sent to ${E2E_ADMIN.email}`)).toBeVisible();
    await expect.poll(() => testMails().length).toBe(before + 1);
    const mail = testMails().at(-1)!;
    // the mail as a recipient gets it: filled with my values, with my own unsubscribe link and header
    expect(mail).toMatch(new RegExp(`^Subject: \\[Test\\] News for ${E2E_ADMIN.username}\\r?$`, "m"));
    expect(mail).toMatch(/^List-Unsubscribe:\s*<[^>]+\/unsubscribe\?token=\d+\.[\w-]+>/m);

    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    const edit = page.getByRole("dialog", { name: "Edit template" });
    await edit.getByLabel("Subject").fill("Second look, {{userName}}");
    await edit.getByRole("button", { name: "Save and send a test to me" }).click();
    await expect(toast(page, `Template updated: ${name}. Test sent to ${E2E_ADMIN.email}`)).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Edit template" }).getByLabel("Subject")).toHaveValue("Second look, {{userName}}");
    await expect.poll(() => testMails().length).toBe(before + 2);
    expect(testMails().at(-1)).toMatch(new RegExp(`^Subject: \\[Test\\] Second look, ${E2E_ADMIN.username}\\r?$`, "m"));
  });

  test("built-in designs: preview with my values in a sandboxed frame, then start a template from one", async ({ page }) => {
    await page.getByRole("link", { name: "HTML templates" }).click();
    // each design is named once (its heading), not again as a badge and a code
    await expect(
      page
        .locator(".email-designs__item")
        .filter({ hasText: "Promotion" })
        .getByText(/^promotion$/i),
    ).toHaveCount(1);
    await page.getByRole("link", { name: "Preview Promotion" }).click();
    await page.getByLabel("userName").fill("Mei <3");
    await page.getByRole("button", { name: "Update preview" }).click();
    await expect(page.getByTestId("preview-subject")).toHaveText("Mei <3, a deal picked for you at QC Finder");
    const frame = page.locator("iframe.email-preview");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(page.frameLocator("iframe.email-preview").getByText("Hi Mei <3, describe the offer")).toBeVisible();

    await page.getByRole("link", { name: "Use Promotion as a new template" }).click();
    const dialog = page.getByRole("dialog", { name: "New template from “Promotion”" });
    await expect(dialog.getByLabel("Subject")).toHaveValue("{{userName}}, a deal picked for you at {{siteName}}");
    await expect(dialog.getByLabel("HTML content")).toHaveValue(/\{\{unsubscribeUrl\}\}/);
  });
});

test.describe("unsubscribe page", () => {
  test("the link shows a confirm form; the button unsubscribes; subscribing again works", async ({ page, request }, testInfo) => {
    const name = uniqueName(testInfo, "unsub");
    const [userId] = insertShoppers(name, 1);
    try {
      // a campaign to all, through the API, so this user has a real message with a link
      const login = await request.post("/api/auth/login", { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
      const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
      const created = await request.post("/api/email/campaigns", {
        headers,
        data: { name, subject: `Unsub ${name}`, html_content: "<p>x</p>" },
      });
      const id = (await created.json()).data.id;
      await request.post(`/api/email/campaigns/${id}/execute`, { headers });
      const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
      let link = "";
      await expect
        .poll(() => {
          for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
            const raw = fs.readFileSync(path.join(outbox, file), "utf8");
            if (raw.includes(`${name}-0@example.test`) && raw.includes(`Unsub ${name}`))
              link = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(raw)?.[1] ?? ""; // the header may be folded
          }
          return link;
        })
        .toMatch(/\/unsubscribe\?token=\d+\./);

      await page.goto(new URL(link).pathname + new URL(link).search);
      await expect(page.getByRole("heading", { name: "E-mail from QC Finder" })).toBeVisible();
      await expect(page.getByText(`${name.slice(0, 2)}***@example.test`)).toBeVisible();
      expect(withDatabase((db) => db.prepare("SELECT count(*) AS n FROM email_unsubscribes WHERE user_id = ?").get(userId))).toEqual({
        n: 0,
      });
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(page.getByRole("status").filter({ hasText: "You are unsubscribed" })).toBeVisible();
      expect(withDatabase((db) => db.prepare("SELECT source FROM email_unsubscribes WHERE user_id = ?").get(userId))).toEqual({
        source: "link",
      });
      await page.getByRole("button", { name: "Subscribe again" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Welcome back" })).toBeVisible();
      expect(withDatabase((db) => db.prepare("SELECT count(*) AS n FROM email_unsubscribes WHERE user_id = ?").get(userId))).toEqual({
        n: 0,
      });
      // the campaign went to everyone: it finishes before the next spec reads its own mail
      await expect
        .poll(async () => (await (await request.get(`/api/email/campaigns/${id}`, { headers })).json()).data.status, { timeout: 20_000 })
        .toBe("completed");
    } finally {
      removeShoppers([userId]);
    }
  });
});

test.describe("email marketing for a visitor", () => {
  test("a login-required screen with a button to /login, which comes back to the page after logging in", async ({
    page,
    allowedConsoleErrors,
  }) => {
    allowedConsoleErrors.push(/status of 401/);
    await page.goto(`${BASE}/campaigns`);
    await expect(page.getByRole("heading", { name: "Login required" })).toBeVisible();
    await page.locator(".error-page").getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Femail-management%2Fcampaigns$/);
    await page.getByLabel("Email or username").fill(E2E_ADMIN.email);
    await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/admin\/email-management\/campaigns$/);
    await expect(page.getByRole("heading", { name: /^Campaigns/ })).toBeVisible();
  });
});

test.describe("editing a campaign that is not a draft", () => {
  test("the edit dialog says 'Only campaigns in draft status can be edited'", async ({ page, request }, testInfo) => {
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, BASE);
    const name = uniqueName(testInfo, "noedit");
    const login = await request.post("/api/auth/login", { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
    const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const created = await request.post("/api/email/campaigns", {
      headers,
      data: { name, subject: name, html_content: "<p>x</p>", schedule_type: "scheduled", scheduled_at: at },
    });
    const id = (await created.json()).data.id;
    await request.post(`/api/email/campaigns/${id}/execute`, { headers });
    try {
      await page.goto(`${BASE}/campaigns/${id}?modal=edit`);
      const dialog = page.getByRole("dialog", { name: "Edit campaign" });
      await expect(dialog.getByRole("alert")).toHaveText("Only campaigns in draft status can be edited");
      await expect(dialog.getByLabel("Name")).toHaveCount(0);
    } finally {
      await request.post(`/api/email/campaigns/${id}/unschedule`, { headers });
      await request.delete(`/api/email/campaigns/${id}`, { headers });
    }
  });
});
