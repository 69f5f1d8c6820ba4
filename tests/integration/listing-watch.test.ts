/**
 * The listing watch against a fake marketplace: a new price is recorded and shown, three
 * "not found" answers mark a listing unavailable (and the external list filters it), a
 * restart in the middle of a round checks nothing twice, and dead-link reports.
 */
import fs from "node:fs";
import path from "node:path";
import type { RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { databaseUrlOf } from "../setup/postgres";
import { makeDataDir, startTestServer, type TestServer } from "../setup/server";
import { openServerDb, rows, sql, type ServerDb } from "../setup/server-db";
import { waitFor as waitUntil } from "../setup/wait";

let fake: FakeMarketplace;
let counter = 0;
const itemId = () => String(7_100_000_000 + Math.floor(Math.random() * 800_000_000) + (counter += 1));

async function waitFor<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The database of each server's folder, opened once (closed after all tests). */
const databases = new Map<string, ServerDb>();

function readDb<T>(dataDir: string, query: RawBuilder<T>): Promise<T[]> {
  let db = databases.get(dataDir);
  if (!db) databases.set(dataDir, (db = openServerDb(dataDir)));
  return rows(db, query);
}

async function addExternal(server: TestServer, token: string, id: string, price: number) {
  const made = await api(server.url, "/api/products/sync-external", {
    token,
    body: { itemId: id, title: `Watched ${id}`, price, source: "weidian" },
  });
  expect([200, 201]).toContain(made.status);
  return made.body.data.id as number;
}

beforeAll(async () => {
  fake = await startFakeMarketplace();
});

afterAll(async () => {
  for (const db of databases.values()) await db.close();
  await fake?.close();
});

describe("the listing watch", () => {
  let server: TestServer;
  let admin: string;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        MARKETPLACE_BASE_URL: fake.url,
        LISTING_CHECKS_PER_HOUR: "72000",
        LISTING_RECHECK_HOURS: "0.0001",
        MARKETPLACE_TIMEOUT_MS: "2000",
      },
    });
    admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
    cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("records a new price in the history, makes it the price, and the product page says what it was and when it changed", async () => {
    const id = itemId();
    fake.set("weidian", id, { title: "Watched hoodie", price: 120 });
    const productId = await addExternal(server, admin, id, 120);
    await waitFor(
      () => fake.hits("weidian", id),
      (hits) => hits >= 1,
    );
    fake.set("weidian", id, { title: "Watched hoodie", price: 99.5 });
    const product = await waitFor(
      async () => (await api(server.url, `/api/products/${productId}?incrementView=false`)).body.data,
      (data) => data.price_cny === 99.5,
    );
    expect(product.price_cny).toBe(99.5);
    const history = await readDb(
      server.dataDir,
      sql<{ price_fen: number }>`SELECT price_fen FROM price_history WHERE product_id = ${productId} ORDER BY recorded_at, id`,
    );
    expect(history.map((row) => row.price_fen)).toEqual([12000, 9950]);
    const page = (await (await getPage(server.url, `/weidian/${id}`)).text()).replace(/<!-- -->/g, "");
    expect(page).toMatch(/Price changed from <span class="price">.*?¥120\.00.*? on \d{1,2} [A-Z][a-z]{2} \d{4}\./s);
    const edit = (await (await getPage(server.url, `/admin/products/${productId}/edit`, cookie)).text()).replace(/<!-- -->/g, "");
    expect(edit).toContain("¥99.50");
    expect(edit).toContain("¥120.00");
  });

  it("marks a listing unavailable after three 'not found' answers in a row, not before; a marketplace failure is not a miss", async () => {
    const id = itemId();
    fake.set("weidian", id, "error");
    const productId = await addExternal(server, admin, id, 10);
    const state = async () =>
      (
        await readDb(
          server.dataDir,
          sql<{ status: string; misses: number; last_error: string | null }>`
            SELECT status, misses, last_error FROM listing_watch WHERE product_id = ${productId}`,
        )
      )[0];
    await waitFor(state, (row) => Boolean(row?.last_error));
    expect(await state()).toMatchObject({ status: "ok", misses: 0 });
    fake.set("weidian", id, "missing");
    const two = await waitFor(state, (row) => row.misses >= 2);
    if (two.misses === 2) expect(two.status).toBe("ok");
    await waitFor(state, (row) => row.misses >= 3);
    expect((await state()).status).toBe("unavailable");
    const page = await (await getPage(server.url, `/weidian/${id}`)).text();
    expect(page).toContain("This listing looks unavailable (checked");
    const list = await (await getPage(server.url, "/admin/external-products?listing=unavailable&limit=100", cookie)).text();
    expect(list).toContain(`Watched ${id}`);
    const all = await (await getPage(server.url, `/admin/external-products?q=${id}`, cookie)).text();
    expect(all).toContain("Unavailable since");

    // it comes back: the next answer makes it available again
    fake.set("weidian", id, { title: "Back again", price: 10 });
    await waitFor(state, (row) => row.status === "ok" && row.misses === 0);
    expect(await (await getPage(server.url, `/weidian/${id}`)).text()).not.toContain("This listing looks unavailable");
  });

  it("takes dead-link reports without JavaScript, visitors too, rate limited, and shows them to staff beside the status", async () => {
    const id = itemId();
    fake.set("weidian", id, { title: "Reported item", price: 5 });
    const productId = await addExternal(server, admin, id, 5);
    const report = await postForm(server.url, "/report-listing", "", {
      productId: String(productId),
      note: "Sold out everywhere",
      returnTo: `/weidian/${id}`,
    });
    expect(report.status).toBe(302);
    expect(report.headers.get("location")).toBe(`/weidian/${id}`);
    expect(await toastAfter(server.url, report, "")).toContain("Thank you. We will check this listing.");
    const edit = await (await getPage(server.url, `/admin/products/${productId}/edit`, cookie)).text();
    expect(edit).toContain("Sold out everywhere");
    const list = (await (await getPage(server.url, `/admin/external-products?q=${id}`, cookie)).text()).replace(/<!-- -->/g, "");
    expect(list).toContain("1 report");
    const tooLong = await postForm(server.url, "/report-listing", cookie, { productId: String(productId), note: "x".repeat(501) });
    expect(await toastAfter(server.url, tooLong, cookie)).toContain("Keep the note under 500 characters.");
    // visitors on one address share ten reports an hour
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++) {
      const answer = await postForm(server.url, "/report-listing", "", { productId: String(productId) });
      limited = (await toastAfter(server.url, answer, "")).includes("Too many requests, please try again later");
    }
    expect(limited).toBe(true);
  });
});

describe("a restart in the middle of a round", () => {
  it("checks every listing once: the one in hand finishes at the stop, the rest are checked after the start, none twice", async () => {
    const dataDir = makeDataDir();
    const env = {
      MARKETPLACE_BASE_URL: fake.url,
      LISTING_CHECKS_PER_HOUR: "7200",
      LISTING_RECHECK_HOURS: "24",
      MARKETPLACE_TIMEOUT_MS: "5000",
    };
    const first = await startTestServer({ dataDir, env: { ...env, LISTING_CHECKS_PER_HOUR: "0" } });
    const token = (await apiLogin(first.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
    const ids = Array.from({ length: 6 }, itemId);
    const productIds: number[] = [];
    for (const id of ids) {
      // slow answers, so the stop comes while a check is running
      fake.set("weidian", id, { title: `Round ${id}`, price: 20, delayMs: 400 });
      productIds.push(await addExternal(first, token, id, 20));
    }
    await first.stop();

    const running = await startTestServer({ dataDir, env });
    await waitFor(
      () => ids.filter((id) => fake.hits("weidian", id) > 0).length,
      (checked) => checked >= 2,
    );
    expect(await running.stop("SIGTERM")).toBe(0);
    const checkedBefore = ids.filter((id) => fake.hits("weidian", id) > 0).length;
    expect(checkedBefore).toBeLessThan(ids.length);

    const again = await startTestServer({ dataDir, env });
    try {
      await waitFor(() => ids.every((id) => fake.hits("weidian", id) > 0), Boolean, 20_000);
      // two more rounds of the watch after that (its periodic job run again twice): nothing may come twice
      const rounds = new Set<string>();
      await waitUntil(
        async () => {
          const [job] = await readDb(
            dataDir,
            sql<{ run_at: number }>`SELECT run_at FROM jobs WHERE key = 'every:listings.watch' AND status IN ('pending', 'running')`,
          );
          if (job) rounds.add(String(job.run_at));
          return rounds.size >= 3;
        },
        { what: "two more rounds of the listing watch", detail: () => `next runs seen: ${[...rounds].join(", ")}` },
      );
      expect(ids.map((id) => fake.hits("weidian", id))).toEqual(ids.map(() => 1));
    } finally {
      await again.stop();
    }
    // the folder's own database (on SQLite its file) holds every check
    if (!databaseUrlOf(dataDir)) expect(fs.existsSync(path.join(dataDir, "app.db"))).toBe(true);
    const checked = await readDb(
      dataDir,
      sql<{ product_id: number }>`SELECT product_id FROM listing_watch WHERE checked_at IS NOT NULL ORDER BY product_id`,
    );
    expect(checked.map((row) => row.product_id)).toEqual([...productIds].sort((a, b) => a - b));
  });
});
