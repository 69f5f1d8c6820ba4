/**
 * The store of the server's front (server/stored-answers.ts) on its own, against the real
 * database of the test file: what may be stored, the one freshness rule, view counts
 * written into JSON, the hits' counting and the byte limit. The whole front, HTTP included,
 * is checked against the app by tests/integration/front-differential.test.ts.
 */
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PRODUCT_ID_HEADER, SEARCH_TERM_HEADER } from "~/lib/content-version.server";
import { newRequestScope, requestScope } from "~/lib/request-scope.server";
import { sharingOf, SHARED_FOR_A_MINUTE } from "~/lib/shared-answers.server";
import { getDb } from "~/lib/db.server";
import { flushSearchCounts } from "~/services/search.server";
import { countProductView, flushViews, unwrittenViews, viewsWrittenAtOnce } from "~/services/view-counts.server";
import { COMPRESS_MIN_BYTES } from "./front-rules";
import {
  ANSWER_MAX_BYTES,
  bodyOf,
  clearStoredAnswers,
  countHit,
  internalOf,
  STORE_MAX_BYTES,
  storeAnswer,
  storedAnswer,
  storedAnswersSize,
  versionsNow,
} from "./stored-answers";

const BROWSER = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

afterEach(async () => {
  clearStoredAnswers();
  vi.useRealTimers();
  await flushViews();
});

/** Makes and stores an answer as the front does: versions first, then the answer, in a request's scope. */
function store(key: string, init: { body: string | Buffer; headers?: Record<string, string>; status?: number; nonce?: string | null }) {
  return requestScope.run(newRequestScope("GET"), () => {
    const versions = versionsNow(false);
    const headers = new Headers({ "Cache-Control": SHARED_FOR_A_MINUTE, ...init.headers });
    const hits = internalOf(headers);
    const body = typeof init.body === "string" ? Buffer.from(init.body) : init.body;
    storeAnswer(key, versions, { status: init.status ?? 200, headers, body, nonce: init.nonce ?? null, hits }, sharingOf(headers), true);
    return headers;
  });
}

const json = { "Content-Type": "application/json; charset=utf-8" };
const html = { "Content-Type": "text/html; charset=utf-8" };
const hit = (userAgent = BROWSER, incrementView: string | null = null) => ({ userAgent, incrementView, clientIp: () => "203.0.113.5" });

describe("the front's store", () => {
  it("stores only what says it may be shared, succeeded, set no cookie and fits", () => {
    store("a", { body: "{}", headers: { ...json, "Cache-Control": "private, no-store" } });
    store("b", { body: "{}", headers: json, status: 404 });
    store("c", { body: "{}", headers: { ...json, "Set-Cookie": "x=1" } });
    store("d", { body: "<!doctype html><p>no nonce</p>", headers: html });
    store("e", { body: Buffer.alloc(ANSWER_MAX_BYTES + 1, 32), headers: json });
    store("f", { body: "{}", headers: { ...json, Vary: "User-Agent" } });
    for (const key of ["a", "b", "c", "d", "e", "f"]) expect(storedAnswer(key, true), key).toBeNull();
    store("g", { body: "<!doctype html><p>a page</p>", headers: html, nonce: "abc" });
    expect(storedAnswer("g", true)?.nonce).toBe("abc");
  });

  it("gives an answer for visitors only to visitors", () => {
    store("list", { body: "[]", headers: { ...json, Vary: "Authorization, Cookie" } });
    expect(storedAnswer("list", false)).toBeNull();
    expect(storedAnswer("list", true)).not.toBeNull();
  });

  it("drops an answer after its s-maxage, at most a minute", () => {
    vi.useFakeTimers({ now: new Date("2026-11-28T12:00:00Z"), toFake: ["Date"] });
    store("short", { body: "{}", headers: { ...json, "Cache-Control": "public, max-age=0, s-maxage=5" } });
    store("long", { body: "{}", headers: { ...json, "Cache-Control": "public, max-age=0, s-maxage=3600" } });
    vi.setSystemTime(new Date("2026-11-28T12:00:04.900Z"));
    expect(storedAnswer("short", true)).not.toBeNull();
    vi.setSystemTime(new Date("2026-11-28T12:00:05Z"));
    expect(storedAnswer("short", true)).toBeNull();
    vi.setSystemTime(new Date("2026-11-28T12:00:59.900Z"));
    expect(storedAnswer("long", true)).not.toBeNull();
    vi.setSystemTime(new Date("2026-11-28T12:01:00Z"));
    expect(storedAnswer("long", true)).toBeNull();
  });

  it("writes the views counted since into a JSON answer's view counts, and counts its own hit first", async () => {
    const body = JSON.stringify({
      success: true,
      data: { id: 901, name: "连帽卫衣", view_count: 41, related: [{ id: 902, view_count: 7 }] },
    });
    const headers = store("/api/products/901", { body, headers: { ...json, [PRODUCT_ID_HEADER]: "901" } });
    expect(headers.has(PRODUCT_ID_HEADER)).toBe(false);
    const entry = storedAnswer("/api/products/901", true);
    if (viewsWrittenAtOnce()) {
      // on PostgreSQL other instances move the counts unseen: such an answer is made anew each time
      expect(entry).toBeNull();
      return;
    }
    await Promise.all(countHit(entry!, hit()));
    countProductView(902);
    const first = JSON.parse(bodyOf(entry!, "identity").body.toString("utf8"));
    expect([first.data.view_count, first.data.related[0].view_count]).toEqual([42, 8]);
    // a crawler's hit and incrementView=false count nothing
    await Promise.all(countHit(entry!, hit(CRAWLER)));
    await Promise.all(countHit(entry!, hit(BROWSER, "false")));
    expect(unwrittenViews(901)).toBe(1);
    expect(JSON.parse(bodyOf(entry!, "identity").body.toString("utf8")).data.view_count).toBe(42);
  });

  it("does not store an answer whose counts another request's view moved while it was made", () => {
    const body = JSON.stringify({ data: [{ id: 903, view_count: 3 }] });
    requestScope.run(newRequestScope("GET"), () => {
      const versions = versionsNow(false);
      // another request's view, counted by this process meanwhile (in that request's scope)
      requestScope.exit(() => countProductView(904));
      const headers = new Headers({ ...json, "Cache-Control": SHARED_FOR_A_MINUTE });
      storeAnswer("moved", versions, { status: 200, headers, body: Buffer.from(body), nonce: null, hits: [] }, sharingOf(headers), true);
    });
    expect(storedAnswer("moved", true)).toBeNull();
  });

  it("counts a stored page's search at each hit, not a crawler's", async () => {
    const term = `stored${Date.now()}`;
    const key = `/search?q=${term}\nUSD||en`;
    store(key, { body: "<!doctype html><p>results</p>", headers: { ...html, [SEARCH_TERM_HEADER]: encodeURIComponent(term) }, nonce: "n" });
    const entry = storedAnswer(key, true)!;
    for (const userAgent of [BROWSER, BROWSER, CRAWLER]) await Promise.all(countHit(entry, hit(userAgent)));
    await flushSearchCounts();
    const row = await getDb()
      .selectFrom("search_terms")
      .select((eb) => eb.fn.sum<number>("searches").as("searches"))
      .where("term", "=", term)
      .executeTakeFirst();
    expect(Number(row?.searches)).toBe(2);
  });

  it("codes a whole JSON answer from COMPRESS_MIN_BYTES and a page at any size, as compression would", () => {
    store("small", { body: JSON.stringify({ text: "x".repeat(COMPRESS_MIN_BYTES - 20) }), headers: json });
    store("large", { body: JSON.stringify({ text: "耐克".repeat(COMPRESS_MIN_BYTES) }), headers: json });
    store("page", { body: "<!doctype html><p>short</p>", headers: html, nonce: "n" });
    expect(bodyOf(storedAnswer("small", true)!, "br").encoding).toBe("identity");
    const large = bodyOf(storedAnswer("large", true)!, "br");
    expect(large.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(large.body).toString("utf8")).toBe(JSON.stringify({ text: "耐克".repeat(COMPRESS_MIN_BYTES) }));
    const page = bodyOf(storedAnswer("page", true)!, "gzip");
    expect(page.encoding).toBe("gzip");
    expect(zlib.gunzipSync(page.body).toString("utf8")).toBe("<!doctype html><p>short</p>");
    expect(zlib.inflateSync(bodyOf(storedAnswer("page", true)!, "deflate").body).toString("utf8")).toBe("<!doctype html><p>short</p>");
  });

  it("holds at most STORE_MAX_BYTES, plain and coded, dropping the answer used longest ago", () => {
    const pageOf = (n: number) => `<!doctype html><p>${n}</p>${crypto.randomUUID().repeat(12_000)}`; // ~430 KB, poorly compressible
    const count = Math.ceil(STORE_MAX_BYTES / (430 * 1024)) + 5;
    for (let n = 0; n < count; n++) {
      store(`page-${n}`, { body: pageOf(n), headers: html, nonce: "n" });
      // the first page is used all along: it stays
      const first = storedAnswer("page-0", true);
      expect(first, `page 0 after ${n}`).not.toBeNull();
      bodyOf(first!, "gzip");
      expect(storedAnswersSize().bytes).toBeLessThanOrEqual(STORE_MAX_BYTES);
    }
    expect(storedAnswer("page-1", true)).toBeNull();
    expect(storedAnswer(`page-${count - 1}`, true)).not.toBeNull();
    expect(storedAnswersSize().answers).toBeLessThan(count);
  });
});
