/**
 * The server's front (stored pages and API answers) against what the app renders:
 * requests real clients send (HEAD from monitors, odd cookies, every Accept-Encoding,
 * long Chinese pages) must never make the front give anyone something the app would not
 * have given them. The server runs with REFERENCE_PORT: the same process answers there
 * through express and Remix only, so both sides share one database and one memory.
 *
 * DIFF_SEED and DIFF_STEPS repeat or lengthen the random run (the bench's
 * `--differential` runs a long one).
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDifferential } from "../setup/front-differential";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin } from "../setup/page-client";
import { databaseUrlOf } from "../setup/postgres";
import { freePort, makeDataDir, startTestServer, type TestServer } from "../setup/server";
import { rawGet } from "./http";
import http from "node:http";

let server: TestServer;
let referencePort: number;
let admin: string;
let adminCookie: string;

const LONG_CHINESE =
  "重磅棉质面料，手感厚实柔软，版型宽松。帽檐双层设计，抽绳可调节，袖口罗纹收口，保暖防风。走线平整，无明显线头；吊牌与水洗标齐全。";

beforeAll(async () => {
  referencePort = await freePort();
  // the demo catalogue: Chinese titles, descriptions and SKUs, pages past 2 KB
  server = await startTestServer({
    dataDir: makeDataDir({ fromTemplate: false }),
    env: { SEED_DEMO: "1", REFERENCE_PORT: String(referencePort), TRUST_PROXY: "1" },
    timeoutMs: 60_000,
  });
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  adminCookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});

afterAll(async () => {
  await server?.stop();
});

function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const nonceOf = (answer: { headers: http.IncomingHttpHeaders }) =>
  /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"] ?? ""))?.[1] ?? null;

const decoded = (answer: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  answer.headers["content-encoding"] === "gzip"
    ? zlib.gunzipSync(answer.body)
    : answer.headers["content-encoding"] === "br"
      ? zlib.brotliDecompressSync(answer.body)
      : answer.body;

async function createProduct(body: Record<string, unknown>) {
  const response = await api(server.url, "/api/admin/products", { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; url: string };
}

describe("the front gives what the app renders", () => {
  it("answers a monitor's HEAD without storing an empty page for everyone", async () => {
    const product = await createProduct({
      name: "Head checked product",
      price_cny: 25,
      platform: "taobao",
      platform_item_id: "661234500001",
    });
    for (const path of ["/", product.url, "/search?q=hoodie", "/blog"]) {
      const head = await request(server.port, "HEAD", path, { "Accept-Encoding": "gzip, br" });
      expect(head.status, path).toBe(200);
      expect(head.body.length).toBe(0);
      for (const encoding of ["gzip", "br", ""]) {
        const page = await request(server.port, "GET", path, encoding ? { "Accept-Encoding": encoding } : {});
        const html = decoded(page).toString("utf8");
        expect(html, `${path} ${encoding}`).toContain("</html>");
        expect(html.length).toBeGreaterThan(2000);
      }
      // and a HEAD served from the stored copy carries no body and no coding it did not apply
      const again = await request(server.port, "HEAD", path, { "Accept-Encoding": "gzip, br" });
      expect(again.headers["x-page-cache"], path).toBe("hit");
      expect(again.headers["content-encoding"]).toBeUndefined();
      expect(again.body.length).toBe(0);
    }
  });

  it("stores long Chinese pages whole: no NUL bytes, every character where it was written", async () => {
    // descriptions of many lengths move the multi-byte characters across the renderer's 2,048-byte chunks
    for (let n = 1; n <= 12; n++) {
      const description = `${"说明".repeat(n)}${LONG_CHINESE.repeat(n + 2)}${"结束".repeat(n)}`;
      const product = await createProduct({
        name: `长描述商品 ${n} 加绒卫衣`,
        description,
        price_cny: 30 + n,
        skus: [{ sku_name: `黑色 ${"加大".repeat(n)}`, sku_price: 30, sku_stock: 1 }],
      });
      for (let pass = 0; pass < 2; pass++) {
        const page = await request(server.port, "GET", product.url, { "Accept-Encoding": pass ? "br" : "gzip" });
        const bytes = decoded(page);
        expect(bytes.includes(0), `NUL in ${product.url} (pass ${pass})`).toBe(false);
        const html = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        expect(html).toContain(description.split("\n")[0].slice(0, 200));
        expect(html).toContain(`结束`.repeat(n));
      }
    }
  });

  it("keys stored pages on the currency and agent the app reads, not on the cookie's text", async () => {
    const product = await createProduct({
      name: "Cookie keyed product",
      price_cny: 100,
      platform: "weidian",
      platform_item_id: "7412345000",
    });
    const priceIn = async (cookie?: string) => {
      const html = (await rawGet(server.port, product.url, cookie ? { Cookie: cookie } : {})).body;
      return /class="price__main">([^<]+)</.exec(html)?.[1] ?? "no price";
    };
    // lower case: the app shows won; it must not become the cookie-less visitor's page
    const won = await priceIn("currency=krw");
    expect(won).toContain("₩");
    expect(await priceIn()).toContain("$");
    expect(await priceIn()).not.toContain("₩");
    // padded: the same won page
    expect(await priceIn(" currency = KRW ")).toContain("₩");
    // not a code: the default currency's page, never stored as euros
    expect(await priceIn("currency=EURx")).toContain("$");
    expect(await priceIn("currency=EUR")).toContain("€");
    expect(await priceIn("currency=EURx")).not.toContain("€");
    // agent= 5 is agent 5 for the app: never "Your agent" for everyone
    const agents = (await api(server.url, `/api/products/${product.id}/agent-links`)).body.data as Array<{ name: string }>;
    expect(agents.length).toBeGreaterThan(1);
    const chosen = (html: string) => /<option value="(\d*)" selected="">/.exec(html)?.[1];
    expect(chosen((await rawGet(server.port, product.url, { Cookie: "agent= 2" })).body)).toBe("2");
    expect(chosen((await rawGet(server.port, product.url)).body)).toBe("");
    expect(chosen((await rawGet(server.port, product.url)).body)).toBe("");
    expect(chosen((await rawGet(server.port, product.url, { Cookie: "agent=2" })).body)).toBe("2");
  });

  it("keys stored pages on the language the app reads (cookie, then Accept-Language), not on the headers' text", async () => {
    const product = await createProduct({
      name: "Language keyed product",
      price_cny: 88,
      platform: "weidian",
      platform_item_id: "7412345111",
    });
    const langOf = async (headers: Record<string, string>, method = "GET") => {
      const answer = await request(server.port, method, product.url, headers);
      expect(answer.status).toBe(200);
      return { lang: /<html lang="([^"]+)"/.exec(decoded(answer).toString("utf8"))?.[1], cache: answer.headers["x-page-cache"] };
    };
    // each asked twice: the second comes from the stored page of that language
    for (const [headers, expected] of [
      [{ "Accept-Language": "zh-CN,zh;q=0.9" }, "zh-CN"],
      [{}, "en"],
      [{ "Accept-Language": "zh-TW" }, "zh-CN"],
      [{ "Accept-Language": "fr-FR,fr;q=0.9" }, "fr"],
      [{ "Accept-Language": "fr-CA" }, "fr"],
      [{ "Accept-Language": "pt-PT,pt;q=0.9" }, "pt-BR"],
      [{ "Accept-Language": "ko-KR,ko;q=0.9" }, "en"],
      [{ "Accept-Language": "en;q=0, zh" }, "zh-CN"],
      [{ "Accept-Language": "*" }, "en"],
      [{ Cookie: "lang=zh-CN", "Accept-Language": "en-US" }, "zh-CN"],
      [{ Cookie: " lang = zh-cn ", "Accept-Encoding": "gzip" }, "zh-CN"],
      [{ Cookie: "lang=en", "Accept-Language": "zh-CN", "Accept-Encoding": "br" }, "en"],
      [{ Cookie: "lang=fr", "Accept-Language": "zh" }, "fr"],
      [{ Cookie: "lang=ko", "Accept-Language": "zh" }, "zh-CN"],
      [{ Cookie: "LANG=zh-CN" }, "en"],
      [{ Cookie: 'lang="zh-CN"' }, "zh-CN"],
    ] as Array<[Record<string, string>, string]>) {
      for (let i = 0; i < 2; i++) expect((await langOf(headers)).lang, `${JSON.stringify(headers)} #${i + 1}`).toBe(expected);
    }
    // the stored copies were used, and a monitor's HEAD is answered from them too
    expect((await langOf({ "Accept-Language": "zh-CN" })).cache).toBe("hit");
    const head = await request(server.port, "HEAD", product.url, { "Accept-Language": "zh-CN" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("keeps nothing under an address the app does not read: a raw # ends the address for both", async () => {
    const word = `hashpoison${Date.now() % 100000}`;
    await createProduct({ name: `${word} hoodie`, price_cny: 40, platform: "weidian", platform_item_id: `77${Date.now() % 1e9}` });
    await createProduct({ name: `${word} jacket`, price_cny: 20, platform: "weidian", platform_item_id: `78${Date.now() % 1e9}` });
    // the line the app reads as "/api/products?incrementView=1": every product
    const poison = await request(server.port, "GET", `/api/products?incrementView=1#&q=${word}&limit=3`);
    expect(poison.status).toBe(200);
    expect(JSON.parse(decoded(poison).toString("utf8")).items.length).toBeGreaterThan(2);
    for (let n = 0; n < 3; n++) {
      const plain = JSON.parse(decoded(await request(server.port, "GET", `/api/products?q=${word}&limit=3`)).toString("utf8"));
      expect(plain.items.map((item: { name: string }) => item.name).sort()).toEqual([`${word} hoodie`, `${word} jacket`]);
    }
    await request(server.port, "GET", `/api/products/search?incrementView=1#&q=${word}&sortBy=price_asc`);
    for (let n = 0; n < 3; n++) {
      const sorted = JSON.parse(
        decoded(await request(server.port, "GET", `/api/products/search?q=${word}&sortBy=price_asc`)).toString("utf8"),
      );
      expect(sorted.items.map((item: { price_cny: number }) => item.price_cny)).toEqual([20, 40]);
    }
    // pages: the line is read up to the "#", and stored under what the app read (a write just
    // before, the products above, may still drop the first copy)
    let hashed = await request(server.port, "GET", `/search?q=${word}#&q=nothing-at-all`);
    let again = await request(server.port, "GET", `/search?q=${word}`);
    for (let n = 0; n < 5 && again.headers["x-page-cache"] !== "hit"; n++) {
      hashed = await request(server.port, "GET", `/search?q=${word}#&q=nothing-at-all`);
      again = await request(server.port, "GET", `/search?q=${word}`);
    }
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(decoded(again).toString("utf8")).toBe(decoded(hashed).toString("utf8").split(nonceOf(hashed)!).join(nonceOf(again)!));
    expect(decoded(again).toString("utf8")).toContain(`${word} hoodie`);
  });

  it("never gives one visitor's limit, failed fetch or outside answer to another: those pages say private, no-store", async () => {
    const shortLink = encodeURIComponent("https://m.tb.cn/h.9Zz8Yy7");
    const limited = "198.51.100.99";
    // the visitor uses up their marketplace fetches (the marketplace does not answer here)
    let page = "";
    for (let n = 0; n < 200 && !page.includes("Too many requests"); n++)
      page = decoded(
        await request(server.port, "GET", `/search?q=${shortLink}`, { "X-Forwarded-For": limited, "Accept-Language": "en" }),
      ).toString("utf8");
    expect(page).toContain("Too many requests, please try again later");
    const limitedAnswer = await request(server.port, "GET", `/search?q=${shortLink}`, {
      "X-Forwarded-For": limited,
      "Accept-Language": "en",
    });
    expect(limitedAnswer.headers["cache-control"]).toBe("private, no-store");
    // another visitor is not told "too many", and is counted: their own failure, never a stored one
    for (const other of ["198.51.100.100", "198.51.100.101"]) {
      const answer = await request(server.port, "GET", `/search?q=${shortLink}`, { "X-Forwarded-For": other, "Accept-Language": "en" });
      const html = decoded(answer).toString("utf8");
      expect(answer.headers["x-page-cache"]).toBeUndefined();
      expect(answer.headers["cache-control"]).toBe("private, no-store");
      expect(html).not.toContain("Too many requests");
      expect(html).toContain("could not be opened");
    }
    // and the limited visitor asking a page an unlimited one just got is still limited
    await request(server.port, "GET", `/search?q=${shortLink}`, { "X-Forwarded-For": "198.51.100.102", "Accept-Language": "en" });
    const still = await request(server.port, "GET", `/search?q=${shortLink}`, { "X-Forwarded-For": limited, "Accept-Language": "en" });
    expect(still.headers["x-page-cache"]).toBeUndefined();
    expect(decoded(still).toString("utf8")).toContain("Too many requests");
    // a page that reads nothing of the visitor says it may be shared, and is
    const shared = await request(server.port, "GET", "/search?q=hoodie", { "X-Forwarded-For": limited });
    expect(shared.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    expect(String(shared.headers.vary)).toMatch(/Cookie/);
  });

  it("passes a seeded random run of real clients' requests and content changes", async () => {
    const seed = Number(process.env.DIFF_SEED ?? Date.now() % 1_000_000);
    const steps = Number(process.env.DIFF_STEPS ?? 450);
    const lines: string[] = [];
    const report = await runDifferential({
      port: server.port,
      referencePort,
      seed,
      steps,
      adminToken: admin,
      adminCookie,
      userToken: admin,
      // a visitor who has used up their marketplace fetches (the server trusts one proxy)
      limitedAddress: "198.51.100.77",
      log: (line) => lines.push(line),
    });
    const summary = `seed ${seed} (DIFF_SEED=${seed} repeats it): ${JSON.stringify({ ...report, mismatches: report.mismatches.length })}`;
    console.log(`front differential: ${summary}`);
    expect(report.mismatches, `${summary}\n${lines.slice(-40).join("\n")}`).toEqual([]);
    // the run did reach the front: pages and answers given from memory were compared
    expect(report.storedPages, summary).toBeGreaterThan(40);
    // on PostgreSQL only answers without view counts (categories, rates) are kept, which a
    // run may not ask for: the stored answers are compared in the SQLite run
    if (!databaseUrlOf(server.dataDir)) expect(report.storedJson, summary).toBeGreaterThan(20);
    expect(report.changes, summary).toBeGreaterThan(5);
    // races between an answer and its comparison are rare, never the rule
    expect(report.raced, summary).toBeLessThan(report.compared / 10);
  }, 300_000);
});
