/**
 * Two app instances on one PostgreSQL database and one bucket, behind a round-robin proxy
 * (PostgreSQL runs only; docs/decisions/030-postgresql.md). Every step alternates between
 * the instances: a shopper registers, logs in, collects, uploads a QC photo; staff review
 * it and every instance's stored product page shows it within a second; failed logins
 * count across instances; a campaign goes on when the instance sending it stops
 * (SIGTERM: each recipient exactly once) or is killed (SIGKILL: nobody lost; only the few
 * messages in flight may go twice, counted as uncertain) while instances come and go.
 * Neither instance is given signing secrets: they share the ones in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BucketStorage } from "~/lib/upload-storage.server";
import { registerAccount } from "../fakes/accounts";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { createCampaign, emailApi, execute, insertRecipients, until, waitForCampaign } from "../fakes/email";
import { startRoundRobinProxy, type RoundRobinProxy } from "../fakes/round-robin-proxy";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { jpeg } from "../setup/images";
import { databaseUrlOf } from "../setup/postgres";
import { openServerDb, row, sql, type ServerDb } from "../setup/server-db";
import { makeDataDir, startTestServer, type TestServer } from "../setup/server";

let s3: FakeS3;
let marketplace: FakeMarketplace;
let smtp: FakeSmtp;
let proxy: RoundRobinProxy;
let databaseUrl: string;
let db: ServerDb;
const instances: TestServer[] = [];
const CONNECTIONS = 3;

/** One more instance on the shared database and bucket (its own data folder: nothing else is shared). */
async function startInstance(): Promise<TestServer> {
  return startTestServer({
    dataDir: makeDataDir({ fromTemplate: false }),
    env: {
      DATABASE_URL: databaseUrl,
      ...s3.env(),
      SMTP_URL: smtp.url,
      TRUST_PROXY: "1",
      EMAIL_SEND_RATE: "400",
      EMAIL_CONNECTIONS: String(CONNECTIONS),
      EMAIL_RETRY_DELAY_MS: "200",
      MARKETPLACE_BASE_URL: marketplace.url,
    },
  });
}

const routeAll = () => proxy.setBackends(instances.map((instance) => instance.url));

/** A product made by the admin through the proxy; its id. */
async function adminProduct(name: string, price: number): Promise<number> {
  const admin = await apiLogin(proxy.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const made = await api(proxy.url, "/api/admin/products", { token: admin.accessToken, body: { name, price } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.data.id;
}

beforeAll(async () => {
  [s3, smtp, proxy, marketplace] = await Promise.all([
    startFakeS3({ buckets: ["shared"] }),
    startFakeSmtp(),
    startRoundRobinProxy([]),
    startFakeMarketplace(),
  ]);
  const first = makeDataDir();
  databaseUrl = databaseUrlOf(first)!;
  db = openServerDb(first);
  instances.push(await startInstance(), await startInstance());
  routeAll();
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await db?.close();
  await Promise.all([proxy?.close(), smtp?.close(), s3?.close(), marketplace?.close()]);
});

describe("two instances behind a round-robin proxy", () => {
  it("a shopper registers, logs in, collects and uploads through both; staff review; every instance shows it within a second", async () => {
    const account = await registerAccount(proxy.url, smtp);
    const login = await apiLogin(proxy.url, account.email, account.password);
    // each instance reads the token the other signed
    const seen = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const me = await api(proxy.url, "/api/users/me", { token: login.accessToken });
      expect(me.status, JSON.stringify(me.body)).toBe(200);
      seen.add(proxy.answeredBy.at(-1)!);
    }
    expect(seen).toEqual(new Set([0, 1]));

    // a browser session made by one instance is good on the other
    const form = new URLSearchParams({ email: account.email, password: account.password });
    const signedIn = await fetch(`${proxy.url}/login`, { method: "POST", body: form, redirect: "manual", headers: { Origin: proxy.url } });
    expect(signedIn.status).toBe(302);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    for (const instance of instances) {
      const profile = await fetch(`${instance.url}/profile`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(profile.status).toBe(200);
    }

    const admin = await apiLogin(proxy.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const productId = await adminProduct(`Shared hoodie ${Date.now()}`, 99);
    const added = await api(proxy.url, "/api/users/collections/add", { token: login.accessToken, body: { productId } });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    for (let i = 0; i < 2; i++) {
      const collection = await api(proxy.url, "/api/users/collections", { token: login.accessToken });
      expect(JSON.stringify(collection.body)).toContain(`"id":${productId}`);
    }

    // both instances have the product page stored before the review
    const pageOf = (instance: TestServer) => fetch(`${instance.url}/product/${productId}`).then((response) => response.text());
    for (const instance of instances) for (let i = 0; i < 2; i++) await pageOf(instance);

    const photo = new FormData();
    photo.append("photos", new Blob([new Uint8Array(await jpeg(160, 120))], { type: "image/jpeg" }), "qc.jpg");
    const uploaded = await api(proxy.url, `/api/qc/products/${productId}/qc-images/user`, { token: login.accessToken, body: photo });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const [{ id: photoId, image_url: imageUrl }] = uploaded.body.uploaded as Array<{ id: number; image_url: string }>;
    // in the bucket, served by either instance
    expect(await new BucketStorage(s3.config()).exists(imageUrl.replace(/^\/uploads\//, ""))).toBe(true);
    for (const instance of instances) expect((await fetch(`${instance.url}${imageUrl}`)).status).toBe(200);

    const reviewed = await api(proxy.url, `/api/qc/qc-images/${photoId}/review`, {
      method: "PUT",
      token: admin.accessToken,
      body: { status: "approved" },
    });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    const approvedAt = Date.now();
    const shown = await Promise.all(
      instances.map(async (instance) => {
        await until(async () => (await pageOf(instance)).includes(imageUrl), 5000, `the photo on ${instance.url}`);
        return Date.now() - approvedAt;
      }),
    );
    for (const elapsed of shown) expect(elapsed).toBeLessThan(1000);
  });

  it("counts failed logins across instances: the sixth try from anywhere needs the captcha", async () => {
    const account = await registerAccount(proxy.url, smtp);
    const answers: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      const failed = await api(proxy.url, "/api/auth/login", {
        body: { email: account.email, password: "not-the-password" },
        headers: { "X-Forwarded-For": `203.0.113.${10 + i}` },
      });
      answers.push(Boolean(failed.body.requiresCaptcha));
    }
    expect(answers).toEqual([false, false, false, false, true, true]);
  });

  it("counts every product view on whichever instance: each answer shows every view before it, pages kept or not", async () => {
    const id = await adminProduct(`Viewed across ${Date.now()}`, 5);
    const count = async (path: string) => (await api(proxy.url, path)).body.data.view_count as number;
    // the proxy alternates: each read is answered by the instance that did not count the view before
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) counts.push(await count(`/api/products/${id}`));
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    // product pages (kept after the first on each instance) count too, written before they go
    const url = (await api(proxy.url, `/api/products/${id}`)).body.data.url as string;
    const pages: Array<string | null> = [];
    for (let i = 0; i < 6; i++) pages.push((await fetch(`${proxy.url}${url}`)).headers.get("x-page-cache"));
    expect(pages.filter((header) => header === "hit").length).toBeGreaterThan(0);
    expect([await count(`/api/products/${id}?incrementView=false`), await count(`/api/products/${id}?incrementView=false`)]).toEqual([
      13, 13,
    ]);
  });

  it("shows a search made on one instance among the popular ones on the other at once", async () => {
    const word = `zorblat${Date.now().toString(36)}`;
    await adminProduct(`${word} jacket`, 5);
    // a search that finds nothing, asked of the other instance before (a copy it would keep)
    const nothing = `/api/products/search?q=nothingmatches${Date.now()}`;
    for (let i = 0; i < 2; i++) expect((await api(instances[1].url, nothing)).body.popularSearches).not.toContain(word);
    // one search that finds it, on the first instance; the one that finds nothing, on the other
    expect((await fetch(`${instances[0].url}/search?q=${word}`)).status).toBe(200);
    expect((await api(instances[1].url, nothing)).body.popularSearches).toContain(word);
    expect(await (await fetch(`${instances[1].url}/search?q=nothingmatches${Date.now()}x`)).text()).toContain(`href="/search?q=${word}"`);
  });

  it("reaches the marketplace once for an item asked of one instance and then of the other", async () => {
    const account = await registerAccount(proxy.url, smtp);
    const token = (await apiLogin(proxy.url, account.email, account.password)).accessToken;
    const itemId = String(7_300_000_000 + (Date.now() % 100_000_000));
    marketplace.set("weidian", itemId, { title: "Asked of both", price: 42 });
    // the first instance fetches and stores it; the second finds it stored
    const crawled = [
      await api(instances[0].url, `/api/crawl/weidian?itemId=${itemId}`, { token }),
      await api(instances[1].url, `/api/crawl/weidian?itemId=${itemId}`, { token }),
    ];
    for (const answer of crawled)
      expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ itemId, title: "Asked of both", price: 42 });
    expect(marketplace.hits("weidian", itemId)).toBe(1);
  });

  it("counts a blog reader once in 30 minutes whichever instance answers, and each reader once", async () => {
    const admin = await apiLogin(proxy.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const made = await api(proxy.url, "/api/blog/posts", {
      token: admin.accessToken,
      body: { title: `Read across instances ${Date.now()}`, content: "<p>Body.</p>", status: "published" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const read = (reader: string) =>
      fetch(`${proxy.url}/blog/${made.body.data.slug}`, {
        headers: { "User-Agent": `Mozilla/5.0 ${reader}`, "X-Forwarded-For": "203.0.113.80" },
      }).then((response) => response.text());
    // the proxy alternates: each instance answers this reader twice, the page kept or not
    for (let i = 0; i < 4; i++) await read("reader-across");
    await read("second-reader");
    const views = async () => (await api(proxy.url, `/api/blog/posts/id/${made.body.data.id}`)).body.data.view_count as number;
    // written before each page went, kept or not: the next read, on either instance, has them
    expect([await views(), await views()]).toEqual([2, 2]);
    // and nothing more comes: a window in which a late count would show (nothing to poll for
    // when the point is that nothing happens)
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await views()).toBe(2);
  });

  it("a campaign goes on when the instance sending it stops: every recipient exactly once", async () => {
    const users = await insertRecipients(db, 120, { prefix: "mi" });
    const marker = `stop-${Date.now()}`;
    const ofCampaign = () => smtp.messages.filter((message) => message.subject.includes(marker));
    smtp.behave({ delayMs: 20 });
    const call = await emailApi(proxy.url);
    const created = await createCampaign(call, { subject: `M [${marker}]`, html_content: "<p>m</p>", recipient_type: "inactive" });
    await execute(call, created.id);
    await until(() => ofCampaign().length >= 15, 20_000, "the first messages");

    // the instance holding the campaign's job leaves (SIGTERM); a new one comes
    const sender = await senderOf(created.id);
    proxy.remove(sender);
    expect(await instances[sender].stop("SIGTERM")).toBe(0);
    instances[sender] = await startInstance();
    routeAll();

    const done = await waitForCampaign(call, created.id, (campaign) => campaign.status === "completed", 60_000);
    // everyone never logged in: these 120 and the accounts of the tests before
    expect(done).toMatchObject({ failed_count: 0, pending_count: 0, uncertain_count: 0 });
    expect(done.sent_count).toBe(done.total_recipients);
    const counts = perRecipient(ofCampaign());
    expect(counts.size).toBe(done.total_recipients);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    for (const user of users) expect(counts.get(user.email.toLowerCase())).toBe(1);
  });

  it("a killed instance's campaign is taken over when its lease runs out: nobody lost, only messages in flight may go twice", async () => {
    const users = await insertRecipients(db, 80, { prefix: "mk" });
    const marker = `kill-${Date.now()}`;
    const ofCampaign = () => smtp.messages.filter((message) => message.subject.includes(marker));
    smtp.behave({ delayMs: 20, answerDelayMs: 60 });
    const call = await emailApi(proxy.url);
    const created = await createCampaign(call, { subject: `K [${marker}]`, html_content: "<p>k</p>", recipient_type: "inactive" });
    await execute(call, created.id);
    await until(() => ofCampaign().length >= 10, 20_000, "the first messages");

    const sender = await senderOf(created.id);
    proxy.remove(sender);
    await instances[sender].stop("SIGKILL");
    const survivor = instances[1 - sender];
    const callSurvivor = await emailApi(survivor.url);
    // the survivor takes the job once the killed instance's lease runs out (15 s)
    const done = await waitForCampaign(callSurvivor, created.id, (campaign) => campaign.status === "completed", 60_000);
    expect(done).toMatchObject({ failed_count: 0, pending_count: 0 });
    expect(done.sent_count).toBe(done.total_recipients);
    expect(done.uncertain_count).toBeLessThanOrEqual(CONNECTIONS);
    const counts = perRecipient(ofCampaign());
    expect(counts.size).toBe(done.total_recipients);
    for (const user of users) expect(counts.get(user.email.toLowerCase())).toBeGreaterThanOrEqual(1);
    const twice = [...counts.values()].filter((n) => n > 1);
    expect(twice.every((n) => n === 2)).toBe(true);
    expect(twice.length).toBeLessThanOrEqual(done.uncertain_count);
    smtp.behave({});
    instances[sender] = await startInstance();
    routeAll();
    // by design it waits out the killed instance's lease (15 s) after the first messages:
    // its own waits (20 s, 10 s, 60 s) bound it, not the suite's 30 s for a test
  }, 120_000);
});

/** How many messages each recipient got. */
function perRecipient(messages: Array<{ to: string[] }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) for (const to of message.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}

/** The index of the instance whose runner holds the campaign's job (its process id is in the lease's name). */
async function senderOf(campaignId: number): Promise<number> {
  let holder: string | null | undefined;
  await until(
    async () => {
      holder = (
        await row(
          db,
          sql<{ claimed_by: string | null }>`SELECT j.claimed_by FROM jobs j JOIN email_campaign_runs r ON j.key = 'campaign-run:' || r.id
            WHERE r.campaign_id = ${campaignId} AND j.status = 'running'`,
        )
      )?.claimed_by;
      return Boolean(holder);
    },
    10_000,
    "the campaign's job to run",
  );
  const index = instances.findIndex((instance) => holder!.split(":")[1] === String(instance.process.pid));
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
}
