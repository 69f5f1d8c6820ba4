/**
 * The sitemap at a size past one file: 50,010 listed products (written into the database
 * before the server starts, through the project's own connection code so the search
 * triggers run) make /sitemap.xml an index whose files each stay within the protocol's
 * 50,000 URLs and 50 MB, list every listed product once and nothing hidden, and are built
 * once per version of the content (kept, answered with ETag and 304, gzipped once).
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { makeDataDir, startTestServer, type TestServer } from "../setup/server";
import { withServerDb } from "../setup/server-db";

const LISTED = 50_010;
let server: TestServer;
let hiddenId: number;

beforeAll(async () => {
  const dataDir = makeDataDir();
  const product = (name: string, platform: "weidian" | null, platformItemId: string | null, listed: number) => ({
    name,
    description: "",
    price_fen: 1000,
    platform,
    platform_item_id: platformItemId,
    is_external: 0,
    show_in_listing: listed,
  });
  hiddenId = await withServerDb(dataDir, async (db) => {
    // in order, in batches of their own (both engines' limits on parameters per statement;
    // on PostgreSQL one transaction for all makes its search triggers slower and slower)
    for (let start = 0; start < LISTED; start += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, LISTED - start) }, (_, i) => start + i);
      await db
        .insertInto("products")
        .values(batch.map((n) => product(`Sitemap item ${n}`, n % 2 ? "weidian" : null, n % 2 ? String(7_100_000_000 + n) : null, 1)))
        .execute();
    }
    const hidden = await db
      .insertInto("products")
      .values(product("Sitemap hidden item", null, null, 0))
      .returning("id")
      .executeTakeFirstOrThrow();
    return hidden.id;
  });
  server = await startTestServer({ dataDir, timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("a sitemap past 50,000 URLs", () => {
  it("is an index of files within the protocol's limits that list every listed product once", async () => {
    const index = await fetch(`${server.url}/sitemap.xml`);
    expect(index.status).toBe(200);
    const indexXml = await index.text();
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = locs(indexXml).map((loc) => new URL(loc).pathname);
    expect(files).toEqual(["/sitemaps/pages.xml", "/sitemaps/products-1.xml", "/sitemaps/products-2.xml"]);

    const seen = new Set<string>();
    for (const file of files) {
      const response = await fetch(`${server.url}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const xml = await response.text();
      expect(xml.length, file).toBeLessThanOrEqual(50 * 1024 * 1024);
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const urls = locs(xml);
      expect(urls.length, file).toBeLessThanOrEqual(50_000);
      for (const url of urls) {
        expect(seen.has(url), `${url} listed twice`).toBe(false);
        seen.add(url);
      }
    }
    const products = [...seen].filter((url) => /\/(product|weidian)\//.test(url));
    expect(products).toHaveLength(LISTED);
    expect(seen.has(`http://localhost:${server.port}/product/1`)).toBe(true);
    expect(seen.has(`http://localhost:${server.port}/weidian/7100000001`)).toBe(true);
    expect(seen.has(`http://localhost:${server.port}/product/${hiddenId}`)).toBe(false);
    expect(seen.has(`http://localhost:${server.port}/`)).toBe(true);
    expect((await fetch(`${server.url}/sitemaps/products-3.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/sitemaps/nothing.xml`)).status).toBe(404);
  }, 60_000);

  it("is built once per version of the content: kept, answered 304 to a known copy, gzipped once", async () => {
    const file = `${server.url}/sitemaps/products-1.xml`;
    const first = await fetch(file, { headers: { "Accept-Encoding": "identity" } });
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const plain = await first.text();
    // kept: asked again it is answered at once, byte for byte
    const started = performance.now();
    const again = await fetch(file, { headers: { "Accept-Encoding": "identity" } });
    expect(await again.text()).toBe(plain);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await fetch(file, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const gzipped = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import("node:http").then(({ default: http }) =>
        http
          .get(file, { headers: { "Accept-Encoding": "gzip" } }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
          })
          .on("error", reject),
      );
    });
    expect(gzipped.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gzipped.body).toString("utf8")).toBe(plain);

    // a change to the catalogue makes new files
    const admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
    const made = await api(server.url, "/api/admin/products", {
      token: admin,
      body: { name: "Sitemap newcomer", platform: "taobao", platform_item_id: "689999000001" },
    });
    expect(made.status).toBe(201);
    const after = await fetch(`${server.url}/sitemaps/products-2.xml`);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(await after.text()).toContain("/taobao/689999000001");
    expect((await fetch(file, { headers: { "If-None-Match": etag } })).status).toBe(200);
  }, 60_000);
});
