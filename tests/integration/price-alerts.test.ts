/**
 * "Tell me when it drops" (issue 39): a signed-in shopper asks on the product page (a plain
 * form); when the price falls below what they were last told of, one e-mail says so, in the
 * language they asked in, with a link that stops the alert without logging in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { formLogin, postForm } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, row, run, sql, type ServerDb } from "../setup/server-db";

let server: TestServer;
let smtp: FakeSmtp;
let db: ServerDb;
let admin: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

async function shopper() {
  const name = unique("watcher");
  const email = `${name}@example.com`;
  const made = await api(server.url, "/api/admin/users", { token: admin, body: { username: name, email, password: "watch-pass-1" } });
  expect(made.status).toBe(201);
  return { email, cookie: await formLogin(server.url, email, "watch-pass-1") };
}

async function setPrice(id: number, price: number) {
  const updated = await api(server.url, `/api/admin/products/${id}`, { method: "PUT", token: admin, body: { price_cny: price } });
  expect(updated.status).toBe(200);
}

/** The alerts job now, instead of within the minute. */
async function runAlertsJob() {
  await run(db, sql`UPDATE jobs SET run_at = ${Date.now()} WHERE key = 'every:prices.alerts' AND status = 'pending'`);
}

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  db = openServerDb(server.dataDir);
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

describe("price alerts", () => {
  it("mail a shopper once when the price drops, in the language they asked in, with a link that stops it", async () => {
    const created = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: unique("Watched jacket "), price_cny: 200 },
    });
    const product = created.body.data as { id: number; url: string; name: string };
    const { email, cookie } = await shopper();

    // a visitor is offered to log in; a shopper gets the button
    const visitorPage = await (await fetch(`${server.url}${product.url}`)).text();
    expect(visitorPage).toContain("to get an e-mail when the price drops.");
    const page = await (await fetch(`${server.url}${product.url}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('value="watch-price"');

    // asked from the page in French (the cookie), with a plain form
    const asked = await postForm(server.url, product.url, `${cookie}; lang=fr`, { intent: "watch-price" });
    expect(asked.status).toBe(302);
    expect(await row(db, sql`SELECT price_fen, language FROM price_alerts WHERE product_id = ${product.id}`)).toEqual({
      price_fen: 20000,
      language: "fr",
    });
    const watching = await (await fetch(`${server.url}${product.url}`, { headers: { Cookie: cookie } })).text();
    expect(watching).toContain('value="unwatch-price"');

    // a rise tells nobody; a drop tells them once
    await setPrice(product.id, 250);
    await setPrice(product.id, 150);
    await runAlertsJob();
    const mail = await smtp.waitForMail(email, { subjectIncludes: "¥150.00", timeoutMs: 20_000 });
    expect(mail.subject).toContain("est maintenant à ¥150.00");
    // MAIL_FROM left at its default: the sender is the site by its name, not "Site"
    const siteName = (await api(server.url, "/api/site-settings/site-info")).body.data.site_name;
    expect(mail.headers.from.replace(/"/g, "")).toBe(`${siteName} <no-reply@localhost>`);
    expect(mail.text).toContain("¥200.00");
    expect(mail.text).toContain(product.url);
    const stop = /(http\S+\/price-alert\?token=[\w.-]+)/.exec(mail.text)?.[1];
    expect(stop).toBeTruthy();
    expect(await row(db, sql`SELECT price_fen FROM price_alerts WHERE product_id = ${product.id}`)).toEqual({ price_fen: 15000 });

    // the same price again, or a higher one, tells nothing more
    await setPrice(product.id, 160);
    await runAlertsJob();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mailTo(email)).toHaveLength(1);

    // two drops read in one run: each lower than the last told, each told
    await setPrice(product.id, 130);
    await setPrice(product.id, 120);
    await runAlertsJob();
    await smtp.waitForMail(email, { subjectIncludes: "¥120.00", timeoutMs: 20_000 });
    expect(smtp.mailTo(email).map((mail) => /¥\d+\.\d\d(?=\D*$)/.exec(mail.subject)?.[0])).toEqual(["¥150.00", "¥130.00", "¥120.00"]);
    expect(await row(db, sql`SELECT price_fen FROM price_alerts WHERE product_id = ${product.id}`)).toEqual({ price_fen: 12000 });

    // the mail's link: a page that asks, then stops it without a login
    const path = new URL(stop!).pathname + new URL(stop!).search;
    const ask = await fetch(`${server.url}${path}`);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Stop the alert");
    const token = new URL(stop!).searchParams.get("token")!;
    const stopped = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ token }),
    });
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toContain("The alert is stopped");
    expect(Number((await row(db, sql<{ n: number }>`SELECT count(*) AS n FROM price_alerts WHERE product_id = ${product.id}`))?.n)).toBe(0);
    // an altered link is refused
    expect((await fetch(`${server.url}/price-alert?token=${token.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`)).status).toBe(400);
  });

  it("are asked and stopped by the signed-in shopper only", async () => {
    const created = await api(server.url, "/api/admin/products", { token: admin, body: { name: unique("Guarded "), price_cny: 80 } });
    const product = created.body.data as { id: number; url: string };
    const visitor = await postForm(server.url, product.url, "", { intent: "watch-price" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
    const { cookie } = await shopper();
    await postForm(server.url, product.url, cookie, { intent: "watch-price" });
    await postForm(server.url, product.url, cookie, { intent: "unwatch-price" });
    expect(Number((await row(db, sql<{ n: number }>`SELECT count(*) AS n FROM price_alerts WHERE product_id = ${product.id}`))?.n)).toBe(0);
  });
});
