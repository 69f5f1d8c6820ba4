/**
 * E-mail marketing against the spec and CONTRACT.md, the points an audit found (real
 * built server, real SQLite, real HTTP, a real SMTP server on 127.0.0.1): a campaign that
 * is not a draft refuses any edit with '只有草稿状态的活动可以编辑' (API and page); a PUT
 * keeps what it does not name; the completion indicator of a run that reached nobody; the
 * one-click unsubscribe POST without a form body; the list's pagination fields; a
 * campaign subject with its template's own variables.
 */
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, openServerDb, pageLogin, setCookies } from "../fakes/accounts";
import { createCampaign, createTemplate, emailApi, execute, insertRecipients, waitForCampaign, type EmailApi } from "../fakes/email";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

const JWT_SECRET = "email-audit-tests-jwt-secret-0123456789";
const EDIT_DRAFT_ONLY = "只有草稿状态的活动可以编辑";

/** An unsubscribe token as the server signs it (decision 018). */
function signedToken(userId: number): string {
  const key = Buffer.from(crypto.hkdfSync("sha256", JWT_SECRET, "", "unsubscribe links", 32));
  return `${userId}.${crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url").slice(0, 22)}`;
}

let server: TestServer;
let smtp: FakeSmtp;
let db: Database.Database;
let call: EmailApi;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, EMAIL_SEND_RATE: "2000", EMAIL_CONNECTIONS: "2", EMAIL_RETRY_DELAY_MS: "200", JWT_SECRET } });
  db = openServerDb(server.dataDir);
  call = await emailApi(server.url);
});

afterAll(async () => {
  db?.close();
  await server?.stop();
  await smtp?.close();
});

const row = (id: number) => db.prepare("SELECT name, subject, status, updated_at FROM email_campaigns WHERE id = ?").get(id);

/**
 * Runs `work` with every user but `only` out of the audience (unsubscribed in the
 * database with source 'test', taken back afterwards).
 */
async function audienceOf<T>(only: number[], work: () => Promise<T>): Promise<T> {
  const keep = new Set(only);
  const others = (db.prepare("SELECT id, email FROM users").all() as Array<{ id: number; email: string }>).filter((u) => !keep.has(u.id));
  const insert = db.prepare("INSERT OR IGNORE INTO email_unsubscribes (user_id, email, source) VALUES (?, ?, 'test')");
  for (const user of others) insert.run(user.id, user.email);
  try {
    return await work();
  } finally {
    db.prepare("DELETE FROM email_unsubscribes WHERE source = 'test'").run();
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

describe("the one-click unsubscribe", () => {
  it("POST /unsubscribe?token= unsubscribes with no body, a text body or a JSON body too: 200, never a redirect; GET changes nothing", async () => {
    const users = insertRecipients(db, 4, { prefix: "oneclick" });
    const count = (id: number) => (db.prepare("SELECT count(*) AS n FROM email_unsubscribes WHERE user_id = ?").get(id) as { n: number }).n;
    const link = (id: number) => `${server.url}/unsubscribe?token=${signedToken(id)}`;

    const page = await fetch(link(users[0].id), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(">Unsubscribe</button>");
    expect(count(users[0].id)).toBe(0);

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
      expect(count(users[n].id), JSON.stringify(init)).toBe(1);
    }
    // a forged token still changes nothing, body or not
    const forged = await fetch(`${server.url}/unsubscribe?token=${users[0].id}.${"A".repeat(22)}`, { method: "POST", redirect: "manual" });
    expect(forged.status).toBe(400);
  });
});
