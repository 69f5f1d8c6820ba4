/**
 * `npm run db:copy -- <sqlite file> <postgres url>` (PostgreSQL runs only: it needs a
 * PostgreSQL server, TEST_DATABASE_URL). A shop run on SQLite (the demo catalogue, a
 * customer, a collection, a QC photo) is copied into an empty PostgreSQL database; every
 * table's rows are counted on both sides; a server on the copy then answers as the old
 * one did: the same product pages and search results, the customer still signed in (the
 * secrets came along), new rows get new ids. A database that is not empty is refused and
 * left as it was.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { jpeg } from "../setup/images";
import { createTestDatabase } from "../setup/postgres";
import { makeDataDir, runScript, startTestServer, type TestServer } from "../setup/server";

const postgres = inject("postgres");

let sqliteServer: TestServer;
let accessToken: string;
let productId: number;

beforeAll(async () => {
  // the shop as it ran on SQLite: DATABASE_URL unset
  sqliteServer = await startTestServer({ env: { DATABASE_URL: undefined, SEED_DEMO: "1" } });
  const admin = await apiLogin(sqliteServer.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const products = await api(sqliteServer.url, "/api/products?limit=5");
  productId = products.body.items?.[0]?.id ?? products.body.data?.[0]?.id;
  expect(productId).toEqual(expect.any(Number));
  const photo = new FormData();
  photo.append("qcImages", new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), "qc.jpg");
  const uploaded = await api(sqliteServer.url, `/api/qc/products/${productId}/qc-images/admin`, { token: admin.accessToken, body: photo });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBeLessThan(300);
  accessToken = admin.accessToken;
  await sqliteServer.stop();
});

afterAll(async () => {
  await sqliteServer?.stop();
});

describe("npm run db:copy", () => {
  it("copies every table into an empty PostgreSQL database, checked by row counts; the copy serves the same shop", async () => {
    const target = createTestDatabase(postgres!.prefix, null);
    const sqliteFile = path.join(sqliteServer.dataDir, "app.db");
    const copy = await runScript("db-copy", [sqliteFile, target], {});
    expect(copy.code, copy.stderr + copy.stdout).toBe(0);
    expect(copy.stdout).toMatch(/copied \d+ tables, \d+ rows in \d+ ms; row counts match/);
    expect(copy.stdout).toMatch(/^products\s+\d+$/m);
    expect(copy.stdout).toMatch(/^qc_images\s+[1-9]\d*$/m);

    // a server on the copy in a new data folder (no secrets.json), with the old uploads folder
    const server = await startTestServer({
      dataDir: makeDataDir({ fromTemplate: false }),
      env: { DATABASE_URL: target, UPLOADS_DIR: path.join(sqliteServer.dataDir, "uploads") },
    });
    try {
      const product = await api(server.url, `/api/products/${productId}`);
      expect(product.status).toBe(200);
      const search = await api(server.url, "/api/products/search?q=hoodie&limit=50");
      expect(search.status).toBe(200);
      expect(search.body.totalItems ?? search.body.pagination?.totalItems).toBeGreaterThan(0);
      // a token signed by the SQLite shop is still good: its signing secrets came along
      const me = await api(server.url, "/api/users/me", { token: accessToken });
      expect(me.status, JSON.stringify(me.body)).toBe(200);
      // the id sequences go on after the copied ids
      const admin = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const category = await api(server.url, "/api/admin/categories", {
        token: admin.accessToken,
        body: { name: `After the copy ${Date.now()}` },
      });
      expect(category.status, JSON.stringify(category.body)).toBe(201);
      // the QC photo's file is where it was
      const photos = await api(server.url, `/api/qc/products/${productId}/qc-images`);
      const url = JSON.stringify(photos.body).match(/\/uploads\/qc\/[^"]+\.webp/)?.[0];
      expect(url).toBeDefined();
      expect((await fetch(`${server.url}${url}`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("refuses a database that is not empty and changes nothing in it", async () => {
    const target = createTestDatabase(postgres!.prefix, postgres!.template);
    const sqliteFile = path.join(sqliteServer.dataDir, "app.db");
    // the template holds no users; one person makes it a shop
    const server = await startTestServer({ env: { DATABASE_URL: target } });
    await server.stop();
    const copy = await runScript("db-copy", [sqliteFile, target], {});
    expect(copy.code).toBe(1);
    expect(copy.stderr).toContain("the PostgreSQL database is not empty (users has rows)");
  });

  it("names what is wrong with its arguments in one line", async () => {
    const missing = await runScript("db-copy", [], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe("usage: npm run db:copy -- <sqlite file> <postgres url>");
    const nowhere = await runScript("db-copy", [path.join(sqliteServer.dataDir, "nothing.db"), "postgres://x@127.0.0.1/y"], {});
    expect(nowhere.stderr.trim()).toMatch(/^no SQLite database at /);
    const notPostgres = await runScript("db-copy", [path.join(sqliteServer.dataDir, "app.db"), "mysql://x"], {});
    expect(notPostgres.stderr.trim()).toBe("the second argument must be a postgres://user:password@host:5432/database URL");
    expect(fs.existsSync(path.join(sqliteServer.dataDir, "app.db"))).toBe(true);
  });
});
