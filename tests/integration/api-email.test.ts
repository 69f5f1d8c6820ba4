/**
 * /api/email over real HTTP against the built server (docs/runtime.md "E-mail marketing",
 * docs/product/admin.md 7): the {success, message, data, error} envelope, who may call it, input
 * checks that name the field and change nothing, the campaign status rules, a template in
 * use, the built-in HTML templates, the overview and campaign stats; and the admin pages'
 * own guards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountByAdmin, grantRole, pageLogin } from "../fakes/accounts";
import { createCampaign, createTemplate, emailApi, execute, insertRecipients, waitForCampaign, type EmailApi } from "../fakes/email";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, row, rows, sql, type ServerDb } from "../setup/server-db";

let server: TestServer;
let smtp: FakeSmtp;
let db: ServerDb;
let call: EmailApi;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, EMAIL_SEND_RATE: "2000", EMAIL_CONNECTIONS: "2", EMAIL_RETRY_DELAY_MS: "200" },
  });
  db = openServerDb(server.dataDir);
  call = await emailApi(server.url);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

const ENVELOPE_KEYS = ["data", "error", "message", "success"];

describe("who may call /api/email", () => {
  const endpoints: Array<[string, string, unknown?]> = [
    ["GET", "/templates"],
    ["POST", "/templates", { name: "x", subject: "x", html_content: "x" }],
    ["GET", "/templates/1"],
    ["PUT", "/templates/1", { name: "x", subject: "x", html_content: "x" }],
    ["DELETE", "/templates/1"],
    ["POST", "/templates/1/send-test"],
    ["GET", "/campaigns"],
    ["POST", "/campaigns", { name: "x", subject: "x" }],
    ["GET", "/campaigns/1"],
    ["PUT", "/campaigns/1", { name: "x", subject: "x" }],
    ["DELETE", "/campaigns/1"],
    ["POST", "/campaigns/1/execute"],
    ["POST", "/campaigns/1/pause"],
    ["GET", "/campaigns/1/stats"],
    ["GET", "/overview"],
    ["GET", "/html-templates"],
    ["POST", "/html-templates/welcome/preview", {}],
  ];

  it("answers 401 '未找到认证令牌，请重新登录' without a token, in the envelope", async () => {
    for (const [method, path, body] of endpoints) {
      const response = await api(server.url, `/api/email${path}`, { method, body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body, `${method} ${path}`).toMatchObject({
        success: false,
        message: "未找到认证令牌，请重新登录",
        data: null,
        error: "AUTH_REQUIRED",
      });
    }
  });

  it("answers 403 '权限不足，需要管理员权限' to a regular user, and changes nothing", async () => {
    const regular = await createAccountByAdmin(server.url);
    const { accessToken } = await apiLogin(server.url, regular.email, regular.password);
    const counts = () => row(db, sql`SELECT (SELECT count(*) FROM email_templates) AS t, (SELECT count(*) FROM email_campaigns) AS c`);
    const before = await counts();
    for (const [method, path, body] of endpoints) {
      const response = await api(server.url, `/api/email${path}`, { method, body, token: accessToken });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual({
        success: false,
        message: "权限不足，需要管理员权限",
        code: "FORBIDDEN",
        data: null,
        error: "FORBIDDEN",
      });
    }
    expect(await counts()).toEqual(before);
  });

  it("lets an admin (role admin, without any permission) in, as the spec says: super_admin and admin", async () => {
    const made = await createAccountByAdmin(server.url);
    await grantRole(db, made.id, "admin");
    const { accessToken } = await apiLogin(server.url, made.email, made.password);
    const response = await api(server.url, "/api/email/templates", { token: accessToken });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(ENVELOPE_KEYS);
  });

  it("refuses methods a path does not serve with 405 in the envelope", async () => {
    const response = await call("/overview", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ success: false, data: null, error: "METHOD_NOT_ALLOWED" });
    expect(response.headers.get("allow")).toBe("GET");
  });
});

describe("templates", () => {
  it("creates, reads, lists, updates and deletes, answering {success, message, data, error}", async () => {
    const created = await call("/templates", {
      body: {
        name: "  Welcome mail ",
        subject: "Hi {{userName}}",
        html_content: "<p>{{promo}} for {{userName}}</p>",
        text_content: "",
        template_variables: { promo: "SAVE10", n: 3 },
      },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(ENVELOPE_KEYS);
    expect(created.body).toMatchObject({
      success: true,
      message: "Template created",
      error: null,
      data: {
        name: "Welcome mail",
        subject: "Hi {{userName}}",
        text_content: null,
        template_variables: { promo: "SAVE10", n: 3 },
        created_by_name: "admin",
        campaign_count: 0,
      },
    });
    const id = created.body.data.id;

    const one = await call(`/templates/${id}`);
    expect(one.body.data).toEqual(created.body.data);
    const list = await call("/templates");
    expect(list.body.data.templates.map((t: { id: number }) => t.id)).toContain(id);

    const updated = await call(`/templates/${id}`, {
      method: "PUT",
      body: { name: "Welcome 2", subject: "Hello", html_content: "<p>Hello</p>", text_content: "Hello", template_variables: {} },
    });
    expect(updated.body).toMatchObject({
      success: true,
      message: "Template updated",
      data: { id, name: "Welcome 2", text_content: "Hello", template_variables: {} },
    });

    const deleted = await call(`/templates/${id}`, { method: "DELETE" });
    expect(deleted.body).toEqual({ success: true, message: "Template deleted", data: null, error: null });
    const gone = await call(`/templates/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, data: null, error: "NOT_FOUND" });
  });

  it("sends a test of a template to the caller, as a recipient would get it; 404 for none; 502 when the relay refuses", async () => {
    const { id } = await createTemplate(call, { subject: "News for {{userName}}" });
    const since = Date.now();
    const sent = await call(`/templates/${id}/send-test`, { method: "POST" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({
      success: true,
      message: `Test sent to ${TEST_ADMIN.email}`,
      data: { email: TEST_ADMIN.email },
      error: null,
    });
    const mail = await smtp.waitForMail(TEST_ADMIN.email, { since, subjectIncludes: "[Test]" });
    expect(mail.subject).toBe(`[Test] News for ${TEST_ADMIN.username}`);
    expect(mail.text).toContain(`Hi ${TEST_ADMIN.username} (${TEST_ADMIN.email})`);
    expect(mail.headers["list-unsubscribe"]).toMatch(/^<http:\/\/[^>]+\/unsubscribe\?token=\d+\.[\w-]{22}>$/);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.headers["list-id"]).toMatch(/^"[^"\r\n]+" <campaigns\.[a-z0-9.-]+>$/);

    expect((await call("/templates/999999/send-test", { method: "POST" })).status).toBe(404);
    smtp.behave({ reject: { code: 550, message: "5.7.1 Relay refused" } });
    try {
      const refused = await call(`/templates/${id}/send-test`, { method: "POST" });
      expect(refused.status).toBe(502);
      expect(refused.body).toMatchObject({
        success: false,
        error: "MAIL_NOT_SENT",
        message: expect.stringContaining("Sending the test failed"),
      });
    } finally {
      smtp.behave({});
    }
    // a test is no campaign: nothing was logged as sent
    expect(await row(db, sql`SELECT count(*) AS n FROM email_sends WHERE email = ${TEST_ADMIN.email}`)).toEqual({ n: 0 });
  });

  it("refuses bad input with 400 naming each field, and stores nothing", async () => {
    const count = async () => (await row(db, sql<{ n: number }>`SELECT count(*) AS n FROM email_templates`))!.n;
    const before = await count();
    const missing = await call("/templates", { body: { name: " ", subject: "", html_content: "  " } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, data: null, error: "VALIDATION_ERROR" });
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["html_content", "name", "subject"]);

    const badVariables = await call("/templates", {
      body: { name: "n", subject: "s", html_content: "<p>x</p>", template_variables: ["a"] },
    });
    expect(badVariables.status).toBe(400);
    expect(badVariables.body.errors[0].field).toBe("template_variables");

    const unknown = await call("/templates", { body: { name: "n", subject: "Hi {{frist_name}}", html_content: "<p>x</p>" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: "subject", message: expect.stringContaining("Unknown variable {{frist_name}}") }]);

    const twoLines = await call("/templates", { body: { name: "n", subject: "a\r\nBcc: x@example.com", html_content: "<p>x</p>" } });
    expect(twoLines.status).toBe(400);
    expect(twoLines.body.errors[0]).toMatchObject({ field: "subject", message: "Subject must be one line" });

    const notJson = await api(server.url, "/api/email/templates", {
      method: "POST",
      token: (await apiLogin(server.url, "admin@example.com", "admin-password-test")).accessToken,
      headers: { "Content-Type": "application/json" },
      body: undefined,
    });
    expect(notJson.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("refuses to delete a template a campaign uses (409), naming the campaign and what to do", async () => {
    const template = await createTemplate(call, { name: "In use" });
    const campaign = await createCampaign(call, { name: "Uses it", template_id: template.id });
    const refused = await call(`/templates/${template.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, data: null, error: "TEMPLATE_IN_USE", campaigns: ["Uses it"] });
    expect(refused.body.message).toBe(
      "This template is used by the campaign “Uses it”. Delete that campaign or change its template first.",
    );
    expect((await call(`/templates/${template.id}`)).status).toBe(200);
    await call(`/campaigns/${campaign.id}`, { method: "DELETE" });
    expect((await call(`/templates/${template.id}`, { method: "DELETE" })).status).toBe(200);
  });
});

describe("campaigns", () => {
  it("creates a draft with every field of the spec; template_id may be an integer, a string or left out", async () => {
    const template = await createTemplate(call);
    const withTemplate = await call("/campaigns", {
      body: {
        name: "Spring",
        subject: "Spring is here",
        template_id: String(template.id),
        recipient_type: "active",
        schedule_type: "immediate",
        scheduled_at: "2030-01-01T10:00",
        recurring_pattern: "daily",
      },
    });
    expect(withTemplate.status).toBe(201);
    expect(withTemplate.body.data).toMatchObject({
      name: "Spring",
      template_id: template.id,
      subject: "Spring is here",
      recipient_type: "active",
      schedule_type: "immediate",
      // fields that do not apply to the schedule are dropped
      scheduled_at: null,
      recurring_pattern: null,
      status: "draft",
      total_recipients: 0,
      sent_count: 0,
      failed_count: 0,
    });
    const bare = await call("/campaigns", { body: { name: "Bare", subject: "Bare" } });
    expect(bare.body.data).toMatchObject({ template_id: null, recipient_type: "all", schedule_type: "immediate", status: "draft" });
    const list = await call("/campaigns");
    expect(list.body.data).toMatchObject({ page: 1, totalItems: expect.any(Number), totalPages: expect.any(Number) });
    expect(list.body.data.campaigns[0].id).toBe(bare.body.data.id);
  });

  it("refuses bad input with 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subject: "s" }, "name"],
      [{ name: "n" }, "subject"],
      [{ name: "n", subject: "s", template_id: "abc" }, "template_id"],
      [{ name: "n", subject: "s", template_id: 999999 }, "template_id"],
      [{ name: "n", subject: "s", recipient_type: "vip" }, "recipient_type"],
      [{ name: "n", subject: "s", schedule_type: "sometimes" }, "schedule_type"],
      [{ name: "n", subject: "s", schedule_type: "scheduled" }, "scheduled_at"],
      [{ name: "n", subject: "s", schedule_type: "scheduled", scheduled_at: "tomorrow" }, "scheduled_at"],
      [{ name: "n", subject: "s", schedule_type: "scheduled", scheduled_at: "2020-01-01T00:00:00Z" }, "scheduled_at"],
      [{ name: "n", subject: "s", schedule_type: "recurring" }, "recurring_pattern"],
      [{ name: "n", subject: "s", schedule_type: "recurring", recurring_pattern: "hourly" }, "recurring_pattern"],
    ];
    for (const [body, field] of cases) {
      const response = await call("/campaigns", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("follows the status rules: execute only a draft (a paused one resumes), pause only a sending one, edit only a draft, delete unless sending", async () => {
    await insertRecipients(db, 3, { prefix: "rules" });
    const draft = await createCampaign(call, { name: "Rules", html_content: "<p>r</p>" });

    expect((await call(`/campaigns/${draft.id}/pause`, { method: "POST" })).status).toBe(400);

    smtp.behave({ delayMs: 150 });
    try {
      const started = await execute(call, draft.id);
      expect(started.body).toMatchObject({ success: true, message: "Campaign is sending", data: { status: "sending" } });

      // sending: no edit, no delete, no second execute
      const edit = await call(`/campaigns/${draft.id}`, { method: "PUT", body: { name: "Changed", subject: "Changed" } });
      expect(edit.status).toBe(400);
      expect(edit.body).toMatchObject({ success: false, message: "只有草稿状态的活动可以编辑", data: null });
      const remove = await call(`/campaigns/${draft.id}`, { method: "DELETE" });
      expect(remove.status).toBe(400);
      expect(remove.body.message).toBe("A sending campaign cannot be deleted: pause it first");
      const again = await execute(call, draft.id);
      expect(again.status).toBe(400);
      expect(again.body.message).toBe("Only a draft campaign can be executed (executing a paused one resumes it)");

      const paused = await call(`/campaigns/${draft.id}/pause`, { method: "POST" });
      expect(paused.body).toMatchObject({ success: true, data: { status: "paused" } });
      expect((await call(`/campaigns/${draft.id}`, { method: "PUT", body: { name: "Changed", subject: "Changed" } })).body.message).toBe(
        "只有草稿状态的活动可以编辑",
      );
      const resumed = await execute(call, draft.id);
      expect(resumed.body).toMatchObject({ message: "Campaign resumed", data: { status: "sending" } });
    } finally {
      smtp.behave({});
    }
    const done = await waitForCampaign(call, draft.id, (c) => c.status === "completed");
    expect((await execute(call, done.id)).status).toBe(400);
    expect((await call(`/campaigns/${done.id}`, { method: "PUT", body: { name: "x", subject: "x" } })).body.message).toBe(
      "只有草稿状态的活动可以编辑",
    );
    const deleted = await call(`/campaigns/${done.id}`, { method: "DELETE" });
    expect(deleted.body).toEqual({ success: true, message: "Campaign deleted", data: null, error: null });
    expect(await row(db, sql`SELECT count(*) AS n FROM email_sends WHERE campaign_id = ${done.id}`)).toEqual({ n: 0 });
  });

  it("edits a draft; refuses to execute one with nothing to send; schedules and takes back a scheduled one", async () => {
    const empty = await createCampaign(call, { name: "Empty" });
    const refused = await execute(call, empty.id);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: "template_id", message: "Choose a template or write the e-mail's HTML body" }]);
    expect((await call(`/campaigns/${empty.id}`)).body.data.status).toBe("draft");

    const at = new Date(Date.now() + 3_600_000).toISOString();
    const edited = await call(`/campaigns/${empty.id}`, {
      method: "PUT",
      body: { name: "Later", subject: "Later", html_content: "<p>l</p>", schedule_type: "scheduled", scheduled_at: at },
    });
    expect(edited.body).toMatchObject({
      success: true,
      message: "Campaign updated",
      data: { name: "Later", schedule_type: "scheduled", scheduled_at: at },
    });
    const scheduled = await execute(call, empty.id);
    expect(scheduled.body).toMatchObject({ message: "Campaign scheduled", data: { status: "scheduled", next_run_at: at } });
    expect(await row(db, sql`SELECT run_at FROM jobs WHERE key = ${`campaign-start:${empty.id}`} AND status = 'pending'`)).toEqual({
      run_at: Date.parse(at),
    });
    expect((await call(`/campaigns/${empty.id}/pause`, { method: "POST" })).status).toBe(400);
    const back = await call(`/campaigns/${empty.id}/unschedule`, { method: "POST" });
    expect(back.body.data).toMatchObject({ status: "draft", next_run_at: null });
    expect(await row(db, sql`SELECT count(*) AS n FROM jobs WHERE key = ${`campaign-start:${empty.id}`} AND status = 'pending'`)).toEqual({
      n: 0,
    });
  });

  it("answers 404 for a campaign that does not exist and 400 for an id that is not one", async () => {
    expect((await call("/campaigns/999999")).status).toBe(404);
    expect((await call("/campaigns/999999/execute", { method: "POST" })).status).toBe(404);
    const bad = await call("/campaigns/abc/stats");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, data: null, error: "VALIDATION_ERROR" });
  });
});

describe("built-in HTML templates", () => {
  it("lists name, displayName, description and type", async () => {
    const response = await call("/html-templates");
    expect(response.body.success).toBe(true);
    expect(response.body.data.length).toBeGreaterThanOrEqual(3);
    for (const template of response.body.data) expect(Object.keys(template).sort()).toEqual(["description", "displayName", "name", "type"]);
  });

  it("previews with siteName, userName, siteUrl and unsubscribeUrl (escaped in the HTML), defaults for the rest", async () => {
    const response = await call("/html-templates/welcome/preview", {
      body: {
        siteName: "Shop <b>&</b>",
        userName: "Mei",
        siteUrl: "https://shop.example/",
        unsubscribeUrl: "https://shop.example/u?t=1&x=2",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.subject).toBe("Welcome to Shop <b>&</b>, Mei");
    expect(response.body.data.html).toContain("Shop &lt;b&gt;&amp;&lt;/b&gt;");
    expect(response.body.data.html).toContain('href="https://shop.example/u?t=1&amp;x=2"');
    expect(response.body.data.html).not.toContain("{{");
    const defaults = await call("/html-templates/newsletter/preview", { body: {} });
    expect(defaults.body.data.subject).toBe("QC Finder monthly: what's new");
    expect(defaults.body.data.html).toContain("Hi admin");
    expect((await call("/html-templates/nope/preview", { body: {} })).status).toBe(404);
  });
});

describe("statistics", () => {
  it("campaign stats answer {sent, failed, pending}", async () => {
    const [refused] = await insertRecipients(db, 1, { prefix: "stats" });
    smtp.behave({ refuseRecipients: { [refused.email]: { code: 550, message: "no" } } });
    try {
      const created = await createCampaign(call, { name: "Stats", html_content: "<p>s</p>" });
      await execute(call, created.id);
      const done = await waitForCampaign(call, created.id, (c) => c.status === "completed");
      const stats = await call(`/campaigns/${created.id}/stats`);
      expect(stats.body.data).toMatchObject({ sent: done.sent_count, failed: 1, pending: 0 });
      expect(stats.body.data.sent).toBeGreaterThan(0);
    } finally {
      smtp.behave({});
    }
  });
  it("the overview has the spec's shape; the success rate is sent ÷ total with one decimal; recentStats are 7 days", async () => {
    const response = await call("/overview");
    const data = response.body.data;
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining([
        "totalCampaigns",
        "activeCampaigns",
        "completedCampaigns",
        "draftCampaigns",
        "failedCampaigns",
        "totalEmailsSent",
        "rates",
        "emailLogs",
        "templates",
        "recentStats",
      ]),
    );
    const statuses = await rows(db, sql<{ status: string; n: number }>`SELECT status, count(*) AS n FROM email_campaigns GROUP BY status`);
    const count = (status: string) => statuses.find((row) => row.status === status)?.n ?? 0;
    expect(data.totalCampaigns).toBe(statuses.reduce((sum, row) => sum + row.n, 0));
    expect(data.draftCampaigns).toBe(count("draft"));
    expect(data.completedCampaigns).toBe(count("completed"));
    expect(data.activeCampaigns).toBe(count("sending") + count("scheduled") + count("paused"));
    const logs = (await row(
      db,
      sql<{ sent: number; failed: number; pending: number }>`
        SELECT count(*) FILTER (WHERE status = 'sent') AS sent, count(*) FILTER (WHERE status = 'failed') AS failed,
          count(*) FILTER (WHERE status IN ('pending', 'sending')) AS pending
        FROM email_sends`,
    ))!;
    expect(data.emailLogs).toMatchObject({
      sent: logs.sent,
      failed: logs.failed,
      pending: logs.pending,
      total: logs.sent + logs.failed + logs.pending,
    });
    expect(data.totalEmailsSent).toBe(logs.sent);
    expect(data.rates.successRate).toBe(Math.round((logs.sent / (logs.sent + logs.failed + logs.pending)) * 1000) / 10);
    expect(data.templates).toEqual({ total: expect.any(Number), active: expect.any(Number) });
    expect(data.recentStats).toHaveLength(7);
    expect(data.recentStats[6]).toEqual({
      date: new Date().toISOString().slice(0, 10),
      sent: logs.sent,
      failed: logs.failed,
      total: logs.sent + logs.failed,
    });
    expect(data.recentStats[0].date).toBe(new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10));
  });
});

describe("the admin pages", () => {
  const pages = [
    "/admin/email-management",
    "/admin/email-management/campaigns",
    "/admin/email-management/html-templates",
    "/admin/email-management/stats",
  ];

  it("show a visitor the login-required screen with a button to /login, and a regular user the 403 with the spec's words", async () => {
    for (const path of [...pages, "/admin/email-management/campaigns/1"]) {
      const visitor = await fetch(`${server.url}${path}`, { redirect: "manual", headers: { "Accept-Language": "en" } });
      expect(visitor.status, path).toBe(401);
      const html = await visitor.text();
      expect(html).toContain("Login required");
      expect(html).toContain(`href="/login?redirectTo=${encodeURIComponent(path)}"`);
    }
    // the rest of the back office still sends visitors to the login page
    expect((await fetch(`${server.url}/admin`, { redirect: "manual" })).status).toBe(302);
    const visitorPost = await fetch(`${server.url}/admin/email-management?index`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ intent: "create", name: "visitor", subject: "x", html_content: "x" }),
    });
    expect(visitorPost.status).toBe(401);
    expect(await row(db, sql`SELECT count(*) AS n FROM email_templates WHERE name = 'visitor'`)).toEqual({ n: 0 });
    const regular = await createAccountByAdmin(server.url);
    const cookie = await pageLogin(server.url, regular.email, regular.password);
    for (const path of pages) {
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(response.status, path).toBe(403);
      expect(await response.text()).toContain("权限不足，需要管理员权限");
    }
    const post = await fetch(`${server.url}/admin/email-management?index`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ intent: "create", name: "x", subject: "x", html_content: "x" }),
    });
    expect(post.status).toBe(403);
    expect(await row(db, sql`SELECT count(*) AS n FROM email_templates WHERE name = 'x'`)).toEqual({ n: 0 });
  });

  it("answer the admin with every tab, and 404 for a campaign that is not there", async () => {
    const cookie = await pageLogin(server.url, "admin@example.com", "admin-password-test");
    for (const path of pages) expect((await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })).status, path).toBe(200);
    expect((await fetch(`${server.url}/admin/email-management/campaigns/999999`, { headers: { Cookie: cookie } })).status).toBe(404);
    expect((await fetch(`${server.url}/admin/email-management/campaigns/abc`, { headers: { Cookie: cookie } })).status).toBe(404);
  });
});
