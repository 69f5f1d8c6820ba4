/**
 * E-mail marketing against the spec and docs/runtime.md, the points an audit found (real
 * built server, its real database, real HTTP, a real SMTP server on 127.0.0.1): a campaign that
 * is not a draft refuses any edit with '只有草稿状态的活动可以编辑' (API and page); a PUT
 * keeps what it does not name; the completion indicator of a run that reached nobody; the
 * one-click unsubscribe POST without a form body; the list's pagination fields; a
 * campaign subject with its template's own variables.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, grantRole, pageLogin, setCookies } from "../fakes/accounts";
import { createCampaign, createTemplate, emailApi, execute, insertRecipients, waitForCampaign, type EmailApi } from "../fakes/email";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, type ServerDb } from "../setup/server-db";

const JWT_SECRET = "email-audit-tests-jwt-secret-0123456789";
const EDIT_DRAFT_ONLY = "只有草稿状态的活动可以编辑";

/** An unsubscribe token as the server signs it (decision 018). */
function signedToken(userId: number): string {
  const key = Buffer.from(crypto.hkdfSync("sha256", JWT_SECRET, "", "unsubscribe links", 32));
  return `${userId}.${crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url").slice(0, 22)}`;
}

let server: TestServer;
let smtp: FakeSmtp;
let db: ServerDb;
let call: EmailApi;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, EMAIL_SEND_RATE: "2000", EMAIL_CONNECTIONS: "2", EMAIL_RETRY_DELAY_MS: "200", JWT_SECRET },
  });
  db = openServerDb(server.dataDir);
  call = await emailApi(server.url);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

const row = (id: number) =>
  db.selectFrom("email_campaigns").select(["name", "subject", "status", "updated_at"]).where("id", "=", id).executeTakeFirst();

/**
 * Runs `work` with every user but `only` out of the audience (unsubscribed in the
 * database with source 'test', taken back afterwards).
 */
async function audienceOf<T>(only: number[], work: () => Promise<T>): Promise<T> {
  const keep = new Set(only);
  const others = (await db.selectFrom("users").select(["id", "email"]).execute()).filter((u) => !keep.has(u.id));
  if (others.length)
    await db
      .insertInto("email_unsubscribes")
      .values(others.map((user) => ({ user_id: user.id, email: user.email, source: "test" })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  try {
    return await work();
  } finally {
    await db.deleteFrom("email_unsubscribes").where("source", "=", "test").execute();
  }
}

/** A campaign that reaches nobody, executed to its end. */
async function completedCampaign(): Promise<{ id: number }> {
  const created = await createCampaign(call, { html_content: "<p>nobody</p>" });
  return audienceOf([], async () => {
    expect((await execute(call, created.id)).status).toBe(200);
    return (await waitForCampaign(call, created.id, (c) => c.status === "completed")) as { id: number };
  });
}

describe("editing a campaign that is not a draft", () => {
  it("answers 400 '只有草稿状态的活动可以编辑' whatever the body holds, and changes nothing", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await createCampaign(call, { html_content: "<p>later</p>", schedule_type: "scheduled", scheduled_at: at });
    expect((await execute(call, scheduled.id)).body.data.status).toBe("scheduled");
    const done = await completedCampaign();

    for (const id of [scheduled.id, done.id]) {
      const before = await row(id);
      const bodies: unknown[] = [
        { name: "Renamed" },
        {},
        { name: "", subject: "" },
        { name: "Whole", subject: "Whole", html_content: "<p>w</p>" },
        undefined,
      ];
      for (const body of bodies) {
        const response = await call(`/campaigns/${id}`, { method: "PUT", body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body, JSON.stringify(body)).toMatchObject({ success: false, message: EDIT_DRAFT_ONLY, data: null });
      }
      expect(await row(id)).toEqual(before);
    }
    expect((await call("/campaigns/999999", { method: "PUT", body: { name: "x" } })).status).toBe(404);
  });

  it("the page says so too: the edit dialog of a non-draft shows the message, and a posted edit changes nothing", async () => {
    const done = await completedCampaign();
    const cookie = await pageLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const path = `/admin/email-management/campaigns/${done.id}`;

    const dialog = await fetch(`${server.url}${path}?modal=edit`, { headers: { Cookie: cookie } });
    expect(dialog.status).toBe(200);
    const html = await dialog.text();
    expect(html).toContain(EDIT_DRAFT_ONLY);
    expect(html).not.toContain('name="intent" value="update"');

    const before = await row(done.id);
    const posted = await fetch(`${server.url}${path}?modal=edit`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ intent: "update", name: "Changed by a form", subject: "" }),
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(path);
    expect(await row(done.id)).toEqual(before);
    const cookies = setCookies(posted.headers);
    cookies.set("sid", cookie.slice("sid=".length));
    const after = await fetch(`${server.url}${path}`, { headers: { Cookie: cookieHeader(cookies) } });
    expect(await after.text()).toContain(EDIT_DRAFT_ONLY);
  });
});

describe("PUT keeps what it does not name", () => {
  it("a draft campaign: only the named fields change", async () => {
    const template = await createTemplate(call);
    const created = await createCampaign(call, { name: "Partial", subject: "Keep me", template_id: template.id, recipient_type: "active" });
    const renamed = await call(`/campaigns/${created.id}`, { method: "PUT", body: { name: "Partial 2" } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({
      success: true,
      data: {
        name: "Partial 2",
        subject: "Keep me",
        template_id: template.id,
        recipient_type: "active",
        schedule_type: "immediate",
        status: "draft",
      },
    });
    // a field can still be cleared by naming it
    const cleared = await call(`/campaigns/${created.id}`, { method: "PUT", body: { template_id: "" } });
    expect(cleared.body.data).toMatchObject({ name: "Partial 2", template_id: null });
    // and the rules hold over the result
    const bad = await call(`/campaigns/${created.id}`, { method: "PUT", body: { schedule_type: "scheduled" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain("scheduled_at");
    expect((await call(`/campaigns/${created.id}`, { method: "PUT", body: ["name"] })).status).toBe(400);
  });

  it("a template: only the named fields change", async () => {
    const template = await createTemplate(call, { template_variables: { promo: "SAVE10" }, html_content: "<p>{{promo}}</p>" });
    const updated = await call(`/templates/${template.id}`, { method: "PUT", body: { subject: "New subject {{promo}}" } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      subject: "New subject {{promo}}",
      html_content: "<p>{{promo}}</p>",
      template_variables: { promo: "SAVE10" },
    });
    expect((await call("/templates/999999", { method: "PUT", body: { subject: "x" } })).status).toBe(404);
  });
});

describe("template variables", () => {
  it("are kept as given (numbers, booleans, null), filled in as their text, and refused when not a flat object", async () => {
    const variables = { promo: "SAVE10", discount: 10, vip: true, note: null };
    const template = await createTemplate(call, {
      subject: "{{discount}}% off",
      html_content: "<p>{{promo}} {{discount}} {{vip}} [{{note}}]</p>",
      template_variables: variables,
    });
    expect((await call(`/templates/${template.id}`)).body.data.template_variables).toEqual(variables);
    expect((await call("/templates")).body.data.templates.find((t: { id: number }) => t.id === template.id).template_variables).toEqual(
      variables,
    );

    const marker = crypto.randomBytes(3).toString("hex");
    const [user] = await insertRecipients(db, 1, { prefix: "vars" });
    const created = await createCampaign(call, { subject: `{{discount}}% off [${marker}]`, template_id: template.id });
    await audienceOf([user.id], async () => {
      await execute(call, created.id);
      await waitForCampaign(call, created.id, (c) => c.status === "completed");
    });
    const [mail] = smtp.messages.filter((m) => m.subject.includes(marker));
    expect(mail.subject).toBe(`10% off [${marker}]`);
    expect(mail.html).toContain("<p>SAVE10 10 true []</p>");

    for (const bad of [{ nested: { a: 1 } }, { list: [1] }, ["promo"], "promo"]) {
      const response = await call("/templates", {
        body: { name: "Bad vars", subject: "s", html_content: "<p>x</p>", template_variables: bad },
      });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.errors[0].field).toBe("template_variables");
    }
  });
});

describe("campaign subjects with the template's own variables", () => {
  it("are accepted with that template, refused without it, and filled in the mail", async () => {
    const template = await createTemplate(call, { template_variables: { promo: "SPRING5" }, html_content: "<p>Code {{promo}}</p>" });
    const without = await call("/campaigns", { body: { name: "No template", subject: "Use {{promo}}", html_content: "<p>x</p>" } });
    expect(without.status).toBe(400);
    expect(without.body.errors[0]).toMatchObject({ field: "subject", message: expect.stringContaining("{{promo}}") });
    const unknown = await call("/campaigns", { body: { name: "Typo", subject: "Use {{promoo}}", template_id: template.id } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe("subject");

    const marker = crypto.randomBytes(3).toString("hex");
    const [user] = await insertRecipients(db, 1, { prefix: "subj" });
    const created = await createCampaign(call, { subject: `Use {{promo}} [${marker}]`, template_id: template.id });
    await audienceOf([user.id], async () => {
      await execute(call, created.id);
      await waitForCampaign(call, created.id, (c) => c.status === "completed");
    });
    const mails = smtp.messages.filter((m) => m.subject.includes(marker));
    expect(mails.map((m) => [m.to[0], m.subject])).toEqual([[user.email, `Use SPRING5 [${marker}]`]]);
  });
});

describe("the completion indicator", () => {
  it("is not-started before the first run, and complete after a run that reached nobody", async () => {
    const draft = await createCampaign(call, { html_content: "<p>d</p>" });
    expect((await call(`/campaigns/${draft.id}`)).body.data).toMatchObject({ run_count: 0, completion: "not-started" });
    const done = await completedCampaign();
    expect((await call(`/campaigns/${done.id}`)).body.data).toMatchObject({
      status: "completed",
      run_count: 1,
      total_recipients: 0,
      pending_count: 0,
      completion: "complete",
    });
    expect((await call(`/campaigns/${done.id}/stats`)).body.data).toMatchObject({ sent: 0, failed: 0, pending: 0 });
  });
});

describe("the campaign list", () => {
  it("answers the spec's pagination fields and takes a limit", async () => {
    for (let n = 0; n < 3; n++) await createCampaign(call, { html_content: "<p>l</p>" });
    const first = await call("/campaigns?limit=2");
    expect(first.body.data).toMatchObject({ page: 1, currentPage: 1, limit: 2, hasPrevPage: false, hasNextPage: true });
    expect(first.body.data.campaigns).toHaveLength(2);
    expect(first.body.data.totalPages).toBe(Math.ceil(first.body.data.totalItems / 2));
    const second = await call("/campaigns?limit=2&page=2");
    expect(second.body.data).toMatchObject({ currentPage: 2, hasPrevPage: true });
    expect(second.body.data.campaigns[0].id).toBeLessThan(first.body.data.campaigns[1].id);
    expect((await call("/campaigns")).body.data.limit).toBe(20);
  });
});

describe("the one-click unsubscribe", () => {
  it("POST /unsubscribe?token= unsubscribes with no body, a text body or a JSON body too: 200, never a redirect; GET changes nothing", async () => {
    const users = await insertRecipients(db, 4, { prefix: "oneclick" });
    const count = async (id: number) =>
      (
        await db
          .selectFrom("email_unsubscribes")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", id)
          .executeTakeFirstOrThrow()
      ).n;
    const link = (id: number) => `${server.url}/unsubscribe?token=${signedToken(id)}`;

    const page = await fetch(link(users[0].id), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(">Unsubscribe</button>");
    expect(await count(users[0].id)).toBe(0);

    const variants: RequestInit[] = [
      { method: "POST" },
      { method: "POST", headers: { "Content-Type": "text/plain" }, body: "List-Unsubscribe=One-Click" },
      { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" },
      { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=x" }, body: "--x--" },
    ];
    for (const [n, init] of variants.entries()) {
      const response = await fetch(link(users[n].id), { ...init, redirect: "manual" });
      expect(response.status, JSON.stringify(init)).toBe(200);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("You are unsubscribed");
      expect(await count(users[n].id), JSON.stringify(init)).toBe(1);
    }
    // a forged token still changes nothing, body or not
    const forged = await fetch(`${server.url}/unsubscribe?token=${users[0].id}.${"A".repeat(22)}`, { method: "POST", redirect: "manual" });
    expect(forged.status).toBe(400);
  });
});

describe("who may see the e-mail marketing pages", () => {
  it("a regular user gets the 403 in the spec's words alone", async () => {
    const { accessToken } = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const email = `regular-${crypto.randomBytes(3).toString("hex")}@example.test`;
    await api(server.url, "/api/admin/users", {
      token: accessToken,
      body: { username: `rg_${crypto.randomBytes(3).toString("hex")}`, email, password: "regular-pw" },
    });
    const cookie = await pageLogin(server.url, email, "regular-pw");
    for (const path of ["/admin/email-management", "/admin/email-management/stats", "/admin/email-management/campaigns/1"]) {
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(response.status, path).toBe(403);
      expect(await response.text(), path).toContain("<p>权限不足，需要管理员权限</p>");
    }
  });

  it("an admin (role admin) gets every tab; a visitor the login-required screen", async () => {
    const { accessToken } = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const email = `role-admin-${crypto.randomBytes(3).toString("hex")}@example.test`;
    const created = await api(server.url, "/api/admin/users", {
      token: accessToken,
      body: { username: `ra_${crypto.randomBytes(3).toString("hex")}`, email, password: "role-admin-pw" },
    });
    await grantRole(db, created.body.data.id, "admin");
    const cookie = await pageLogin(server.url, email, "role-admin-pw");
    for (const path of [
      "/admin/email-management",
      "/admin/email-management/campaigns",
      "/admin/email-management/html-templates",
      "/admin/email-management/stats",
    ]) {
      expect((await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })).status, path).toBe(200);
      const visitor = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(visitor.status, path).toBe(401);
      expect(await visitor.text()).toContain(`href="/login?redirectTo=${encodeURIComponent(path)}"`);
    }
  });
});
