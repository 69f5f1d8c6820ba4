/**
 * docs/product/storefront.md 8: a search that fails says 'Failed to search products.' and answers
 * an empty result with it: the API as the error envelope with the list fields, the page
 * as its results view with the message (never the crash screen). The failure is real: the
 * search index is dropped under the running server.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { getPage } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const made = await api(server.url, "/api/admin/products", { token: admin, body: { name: "Searchable hoodie" } });
  expect(made.status).toBe(201);
  // a search that works first
  expect((await api(server.url, "/api/products/search?q=hoodie")).body.totalItems).toBe(1);
  const db = new SQLite(path.join(server.dataDir, "app.db"));
  try {
    db.pragma("busy_timeout = 2000");
    db.exec("DROP TABLE products_fts");
  } finally {
    db.close();
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
