/**
 * docs/product/storefront.md 8: a search that fails says 'Failed to search products.' and answers
 * an empty result with it: the API as the error envelope with the list fields, the page
 * as its results view with the message (never the crash screen). The failure is real: the
 * search index is dropped under the running server (products_fts on SQLite, product_search
 * on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { getPage } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import { run, sql, withServerDb } from "../setup/server-db";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const made = await api(server.url, "/api/admin/products", { token: admin, body: { name: "Searchable hoodie" } });
  expect(made.status).toBe(201);
  // a search that works first
  expect((await api(server.url, "/api/products/search?q=hoodie")).body.totalItems).toBe(1);
  const engine = await withServerDb(server.dataDir, async (db) => {
    if (db.engine === "sqlite") await run(db, sql`DROP TABLE products_fts`);
    else {
      // PostgreSQL: a dropped table is no change of the data the server hears of (SQLite's
      // data_version is), so the change notification its caches follow is sent with it
      await db.transaction().execute(async (trx) => {
        await run(trx, sql`DROP TABLE product_search`);
        await run(trx, sql`SELECT pg_notify('app_changes', 'content')`);
      });
    }
    return db.engine;
  });
  // PostgreSQL: the notification reaches the server a moment after the commit (until then
  // it may answer the search it kept)
  const deadline = Date.now() + 3_000;
  while (engine === "postgres" && Date.now() < deadline && (await api(server.url, "/api/products/search?q=hoodie")).status === 200) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(async () => {
  await server?.stop();
});

describe("a failing search", () => {
  it("answers 500 'Failed to search products.' with an empty result on the API", async () => {
    const response = await api(server.url, "/api/products/search?q=hoodie");
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({
      success: false,
      message: "Failed to search products.",
      code: "SEARCH_FAILED",
      items: [],
      data: [],
      totalItems: 0,
      currentPage: 1,
      totalPages: 1,
      limit: 8,
      query: "hoodie",
    });
    expect(server.output()).toContain('[search] "hoodie" failed');
  });

  it("shows the message with no results on the page, and does not keep that page", async () => {
    const response = await getPage(server.url, "/search?q=hoodie");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const html = await response.text();
    expect(html).toContain("Failed to search products.");
    expect(html).toContain("No products match your search.");
    const again = await getPage(server.url, "/search?q=hoodie");
    expect(again.headers.get("x-page-cache")).toBeNull();
  });
});
