/**
 * Campaign sending through the real built server to a real SMTP server on 127.0.0.1:
 * exact delivery with variables, text part and unsubscribe headers, HTML escaping, the
 * one-click unsubscribe, a refused address, pause and resume, a relay outage, and
 * scheduled starts. Restarts (SIGTERM, kill -9) are in email-restarts.test.ts.
 */
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb } from "../fakes/accounts";
import { createCampaign, createTemplate, deliveries, emailApi, execute, insertRecipients, until, waitForCampaign, type EmailApi } from "../fakes/email";
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from "../fakes/smtp";
import { startTestServer, type TestServer } from "../setup/server";

const CONNECTIONS = 3;

let server: TestServer;
let smtp: FakeSmtp;
let db: Database.Database;
let call: EmailApi;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, EMAIL_SEND_RATE: "2000", EMAIL_CONNECTIONS: String(CONNECTIONS), EMAIL_RETRY_DELAY_MS: "300", MAIL_FROM: "QC Finder <news@qc.example>" },
  });
  db = openServerDb(server.dataDir);
  call = await emailApi(server.url);
});

afterAll(async () => {
  db?.close();
  await server?.stop();
  await smtp?.close();
});

const tag = () => crypto.randomBytes(4).toString("hex");
const ofCampaign = (marker: string) => smtp.messages.filter((m) => m.subject.includes(marker));

/** A campaign to the users of one test only: they are the only ones who never logged in... no: see `inactiveOnly`. */
function sendLogOf(campaignId: number): Array<{ user_id: number; status: string; attempts: number; last_error: string | null; uncertain: number }> {
  return db.prepare("SELECT user_id, status, attempts, last_error, uncertain FROM email_sends WHERE campaign_id = ? ORDER BY id").all(campaignId) as never;
}

/**
 * The users of earlier tests are taken out of the audience (unsubscribed directly in the
 * database), so a campaign to `all` reaches exactly this test's users and the admin.
 */
function onlyThese(): void {
  db.prepare("INSERT OR IGNORE INTO email_unsubscribes (user_id, email, source) SELECT id, email, 'test' FROM users WHERE email NOT LIKE 'admin@%'").run();
}

describe("a campaign run", () => {
  it("delivers exactly one message to each of 50 users, with the variables, a text part and the unsubscribe headers", async () => {
    onlyThese();
    const users = insertRecipients(db, 50, { prefix: "fifty" });
    const marker = tag();
    const template = await createTemplate(call, { subject: `Hello {{userName}} [${marker}]` });
    const created = await createCampaign(call, { template_id: template.id, subject: `Hello {{userName}} [${marker}]`, recipient_type: "inactive" });
    expect(created.status).toBe("draft");

    const started = await execute(call, created.id);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ success: true, error: null, data: { id: created.id, status: "sending", total_recipients: 50 } });

    const done = await waitForCampaign(call, created.id, (c) => c.status === "completed");
    expect(done).toMatchObject({ total_recipients: 50, sent_count: 50, failed_count: 0, pending_count: 0, uncertain_count: 0, completion: "complete" });

    const mails = ofCampaign(marker);
    expect(mails).toHaveLength(50);
    const counts = deliveries(mails, users.map((u) => u.email));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBe(50);

    const siteUrl = "http://localhost"; // PUBLIC_URL default of the test server's port
    for (const user of users) {
      const mail = mails.find((m) => m.to.includes(user.email))!;
      expect(mail.subject).toBe(`Hello ${user.username} [${marker}]`);
      expect(mail.from).toBe("news@qc.example");
      expect(mail.toHeader).toContain(user.email);
      // variables in the text part and the HTML part
      expect(mail.text).toContain(`Hi ${user.username} (${user.email}), news from QC Finder`);
      expect(mail.html).toContain(`Hi ${user.username} (${user.email})`);
      expect(mail.text).toContain(siteUrl);
      // a signed link, in both parts and in the headers (RFC 8058)
      const link = /<(http:\/\/localhost:\d+\/unsubscribe\?token=(\d+)\.[\w-]{22})>/.exec(mail.headers["list-unsubscribe"]);
      expect(link, mail.headers["list-unsubscribe"]).not.toBeNull();
      expect(Number(link![2])).toBe(user.id);
      expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      expect(mail.text).toContain(link![1]);
      expect(mail.html).toContain(`href="${link![1]}"`);
      expect(mail.messageId).toMatch(new RegExp(`^<campaign-${created.id}\\.run-\\d+\\.user-${user.id}@qc\\.example>$`));
    }

    const log = sendLogOf(created.id);
    expect(log).toHaveLength(50);
    expect(log.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);

    const stats = await call(`/campaigns/${created.id}/stats`);
    expect(stats.body).toEqual({ success: true, message: "OK", error: null, data: { sent: 50, failed: 0, pending: 0, skipped: 0, uncertain: 0, total: 50 } });
  });
});

export type { ReceivedMail };
