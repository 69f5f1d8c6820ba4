/**
 * Campaign runs across restarts of the real built server, with a real SMTP server on
 * 127.0.0.1 that outlives them:
 * - SIGTERM mid-run finishes the messages in flight and leaves the rest pending; after a
 *   restart every recipient has exactly one message;
 * - kill -9 mid-run loses nobody; only the messages in flight (at most the connection
 *   count) can go twice, and the campaign says how many were uncertain;
 * - a scheduled campaign whose time passed while the server was down starts at start.
 */
import crypto from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createCampaign, deliveries, emailApi, execute, insertRecipients, until, waitForCampaign, type Recipient } from "../fakes/email";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { makeDataDir, startTestServer, type TestServer } from "../setup/server";
import { openServerDb, row, rows, sql, type ServerDb } from "../setup/server-db";
import { clockPast } from "../setup/wait";

const CONNECTIONS = 3;
const servers: TestServer[] = [];
const dbs: ServerDb[] = [];
let smtp: FakeSmtp | undefined;

async function start(dataDir: string, env: Record<string, string> = {}) {
  smtp ??= await startFakeSmtp();
  const server = await startTestServer({
    dataDir,
    env: { SMTP_URL: smtp.url, EMAIL_SEND_RATE: "2000", EMAIL_CONNECTIONS: String(CONNECTIONS), EMAIL_RETRY_DELAY_MS: "300", ...env },
  });
  servers.push(server);
  return server;
}

function open(dataDir: string) {
  const db = openServerDb(dataDir);
  dbs.push(db);
  return db;
}

afterEach(() => smtp?.behave({}));

afterAll(async () => {
  for (const db of dbs) await db.close();
  for (const server of servers) await server.stop("SIGKILL");
  await smtp?.close();
});

const statusCounts = async (db: ServerDb, campaignId: number) =>
  Object.fromEntries(
    (
      await rows(
        db,
        sql<{ status: string; n: number }>`SELECT status, count(*) AS n FROM email_sends WHERE campaign_id = ${campaignId} GROUP BY status`,
      )
    ).map((row) => [row.status, row.n]),
  );

/** A fresh server with `count` recipients who never logged in (the admin did: not in `inactive`). */
async function setUp(count: number): Promise<{ dataDir: string; server: TestServer; db: ServerDb; users: Recipient[]; marker: string }> {
  const dataDir = makeDataDir();
  const server = await start(dataDir);
  const db = open(dataDir);
  const users = await insertRecipients(db, count, { prefix: "restart" });
  return { dataDir, server, db, users, marker: crypto.randomBytes(4).toString("hex") };
}

describe("a campaign run across restarts", () => {
  it("SIGTERM mid-run: the messages in flight finish and are recorded, the rest waits; after a restart every recipient has exactly one", async () => {
    const { dataDir, server, db, users, marker } = await setUp(40);
    const ofCampaign = () => smtp!.messages.filter((m) => m.subject.includes(marker));
    smtp!.behave({ delayMs: 60, answerDelayMs: 60 });
    const call = await emailApi(server.url);
    const created = await createCampaign(call, { subject: `T [${marker}]`, html_content: "<p>t</p>", recipient_type: "inactive" });
    await execute(call, created.id);
    await until(() => ofCampaign().length >= 8, 15_000, "the first messages");

    expect(await server.stop("SIGTERM")).toBe(0);
    const stopped = await statusCounts(db, created.id);
    expect(stopped.sending ?? 0).toBe(0);
    // everything the relay accepted is recorded as sent, nothing more
    expect(stopped.sent).toBe(ofCampaign().length);
    expect(stopped.pending).toBe(40 - stopped.sent);
    expect(stopped.pending).toBeGreaterThan(0);
    const run = await row(db, sql<{ id: number }>`SELECT id FROM email_campaign_runs WHERE campaign_id = ${created.id}`);
    expect(await row(db, sql`SELECT status FROM jobs WHERE key = ${`campaign-run:${run!.id}`}`)).toEqual({ status: "pending" });

    const again = await start(dataDir);
    const callAgain = await emailApi(again.url);
    const done = await waitForCampaign(callAgain, created.id, (c) => c.status === "completed");
    expect(done).toMatchObject({ sent_count: 40, failed_count: 0, pending_count: 0, uncertain_count: 0 });
    const counts = deliveries(
      ofCampaign(),
      users.map((u) => u.email),
    );
    expect(counts.size).toBe(40);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(ofCampaign()).toHaveLength(40);
  });

  it("kill -9 mid-run: nobody lost; only the messages in flight may go twice (at most the connections), and the campaign says how many were uncertain", async () => {
    const { dataDir, server, db, users, marker } = await setUp(40);
    const ofCampaign = () => smtp!.messages.filter((m) => m.subject.includes(marker));
    // the relay keeps each message, then answers late: a kill in between leaves the sender unsure
    smtp!.behave({ delayMs: 30, answerDelayMs: 120 });
    const call = await emailApi(server.url);
    const created = await createCampaign(call, { subject: `K [${marker}]`, html_content: "<p>k</p>", recipient_type: "inactive" });
    await execute(call, created.id);
    await until(() => ofCampaign().length >= 8, 15_000, "the first messages");

    await server.stop("SIGKILL");
    const killed = await statusCounts(db, created.id);
    const inFlight = killed.sending ?? 0;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThanOrEqual(CONNECTIONS);
    expect(killed.sent + inFlight + (killed.pending ?? 0)).toBe(40);

    const again = await start(dataDir);
    const callAgain = await emailApi(again.url);
    const done = await waitForCampaign(callAgain, created.id, (c) => c.status === "completed");
    expect(done).toMatchObject({ sent_count: 40, failed_count: 0, pending_count: 0, uncertain_count: inFlight });

    const counts = deliveries(
      ofCampaign(),
      users.map((u) => u.email),
    );
    expect(counts.size).toBe(40); // nobody lost
    const twice = [...counts.entries()].filter(([, n]) => n > 1);
    expect(twice.every(([, n]) => n === 2)).toBe(true);
    expect(twice.length).toBeLessThanOrEqual(inFlight);
    // the ones sent twice are exactly among those marked uncertain in the log
    const uncertain = new Set(
      (
        await rows(db, sql<{ email: string }>`SELECT s.email FROM email_sends s WHERE s.campaign_id = ${created.id} AND s.uncertain = 1`)
      ).map((row) => row.email),
    );
    expect(uncertain.size).toBe(inFlight);
    for (const [email] of twice) expect(uncertain.has(email)).toBe(true);
    // the same Message-ID both times, so a mailbox can tell the copy
    for (const [email] of twice) {
      const ids = ofCampaign()
        .filter((m) => m.to.includes(email))
        .map((m) => m.messageId);
      expect(new Set(ids).size).toBe(1);
    }

    // the campaign page says so
    const page = await fetch(`${again.url}/admin/email-management/campaigns/${created.id}`, {
      headers: { Cookie: await adminCookie(again.url), "Accept-Language": "en" },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      `${inFlight} message${inFlight === 1 ? " was" : "s were"} being sent when the server stopped unexpectedly`,
    );
  });

  it("a scheduled campaign whose time passed while the server was down starts when it comes back", async () => {
    const { dataDir, server, db, users, marker } = await setUp(2);
    void db;
    const call = await emailApi(server.url);
    const at = new Date(Date.now() + 1500).toISOString();
    const created = await createCampaign(call, {
      subject: `D [${marker}]`,
      html_content: "<p>d</p>",
      recipient_type: "inactive",
      schedule_type: "scheduled",
      scheduled_at: at,
    });
    expect((await execute(call, created.id)).body.data.status).toBe("scheduled");
    expect(await server.stop("SIGTERM")).toBe(0);
    await clockPast(Date.parse(at), "the campaign's time, while the server is down");
    const ofCampaign = () => smtp!.messages.filter((m) => m.subject.includes(marker));
    expect(ofCampaign()).toHaveLength(0);

    const again = await start(dataDir);
    const done = await waitForCampaign(await emailApi(again.url), created.id, (c) => c.status === "completed");
    expect(done).toMatchObject({ sent_count: 2, run_count: 1 });
    expect(
      deliveries(
        ofCampaign(),
        users.map((u) => u.email),
      ),
    ).toEqual(new Map(users.map((u) => [u.email, 1])));
  });
});

describe("the sending thread", () => {
  it("closes after a quiet spell (its memory goes back) and a new one sends the next campaign: everyone exactly once", async () => {
    const dataDir = makeDataDir();
    const server = await start(dataDir, { EMAIL_WORKER_IDLE_MS: "400" });
    const db = open(dataDir);
    const users = await insertRecipients(db, 20, { prefix: "idle" });
    const call = await emailApi(server.url);
    for (const round of [1, 2]) {
      const marker = crypto.randomBytes(4).toString("hex");
      const created = await createCampaign(call, {
        subject: `Idle ${round} [${marker}]`,
        html_content: "<p>hi</p>",
        recipient_type: "inactive",
      });
      await execute(call, created.id);
      await waitForCampaign(call, created.id, (c) => c.status === "completed");
      const mails = smtp!.messages.filter((m) => m.subject.includes(marker));
      expect(
        deliveries(
          mails,
          users.map((u) => u.email),
        ),
      ).toEqual(new Map(users.map((u) => [u.email, 1])));
      await until(() => server.output().split("the campaign worker closed after a quiet spell").length - 1 === round, 5000);
    }
    expect(server.output().split("email: campaign worker thread started").length - 1).toBe(2);
  });
});

async function adminCookie(baseUrl: string): Promise<string> {
  const { pageLogin } = await import("../fakes/accounts");
  return pageLogin(baseUrl, "admin@example.com", "admin-password-test");
}
