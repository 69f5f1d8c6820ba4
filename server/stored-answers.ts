/**
 * The answers the server's front gives again from memory (docs/stored-pages.md): rendered
 * storefront and blog pages for visitors, and the JSON of the hot catalogue reads. One
 * store, one rule for what may be stored, one freshness rule, one coding setting, and one
 * limit (least recently used out: lru-cache, whose use of an entry moves an index, not
 * the entry, so a hit leaves no young objects hanging off old ones; docs/performance.md).
 *
 * - **What**: only an answer that says it may be shared (`sharingOf()`:
 *   `Cache-Control: public, s-maxage=N`), read nothing of one caller's own, sets no cookie,
 *   status 200, and showed nothing that moved while it was made but by its own counting.
 * - **Stale** when what it shows may have changed: the content version (catalogue,
 *   settings, rates), the blog's version for blog pages, SQLite's data_version (another
 *   process wrote), the views it lists by, and after its s-maxage (at most a minute).
 * - **Counts**: what a hit must count (a product's view, a search, a blog read) is the
 *   app's one list (app/services/hit-counters.server.ts); the loader names it in an
 *   internal header, kept here and never sent.
 * - **View counts in JSON**: each product in a stored JSON answer shows its view count,
 *   which moves with every view. The answer is stored as the text around those counts, and
 *   each hit writes in the count each product had when stored plus the views counted since
 *   (watchViews() sees every view this process counts, by any path).
 */
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
import { blogVersion, contentVersion, viewsVersion, type ViewDependency } from "../app/lib/content-version.server";
import { dataVersion } from "../app/lib/db.server";
import { requestScope } from "../app/lib/request-scope.server";
import type { StoreRule } from "../app/lib/shared-answers.server";
import { HIT_COUNTERS, type CountHit, type Hit } from "../app/services/hit-counters.server";
import { unwatchViews, viewsWrittenAtOnce, watchViews, type ViewWatch } from "../app/services/view-counts.server";
import { COMPRESS_MIN_BYTES, sentWhole, type Encoding } from "./front-rules";

/** The answers stored at most. */
export const STORE_MAX_ANSWERS = 5000;
/** The bytes the stored answers may take (plain and coded): the memory they may cost (8 MB: decision 041, issue 37). */
export const STORE_MAX_BYTES = 8 * 1024 * 1024;
/** A larger answer is not stored. */
export const ANSWER_MAX_BYTES = 512 * 1024;

/** Headers between the loaders and the server, never sent: what a hit counts, and what the server sets itself. */
export const INTERNAL_HEADERS: readonly string[] = HIT_COUNTERS.map((counter) => counter.header.toLowerCase());

const VIEW_DEPENDENCIES: readonly ViewDependency[] = ["product-views", "written-product-views", "popular-posts", "popular-searches"];

/** What an answer may show, read before it is made: a stored answer is stale once one of them moves. */
export type Versions = {
  contentVersion: number;
  dataVersion: number;
  /** blog pages: the blog's version (null: not a blog page) */
  blogVersion: number | null;
  views: Record<ViewDependency, number>;
};

/** The versions now, taken before an answer that may be stored is made. */
export function versionsNow(blog: boolean): Versions {
  const views = {} as Record<ViewDependency, number>;
  for (const kind of VIEW_DEPENDENCIES) views[kind] = viewsVersion(kind);
  return { contentVersion: contentVersion(), dataVersion: dataVersion(), blogVersion: blog ? blogVersion() : null, views };
}

/**
 * Where a stored JSON body shows view counts: for each, the byte range of its digits, the
 * product, the count it showed and the product's watched views when stored. A few packed
 * arrays per answer, not an object and a Buffer per count (a list answer shows 20).
 */
type CountSites = { ranges: number[]; ids: number[]; base: number[]; seen: number[]; watches: ViewWatch[] };

/** What the store's objects around a body cost, counted with the bodies against STORE_MAX_BYTES (estimates). */
const ANSWER_OVERHEAD_BYTES = 1024;
const COUNT_SITE_BYTES = 64;

/** A body made for the counts it shows, with its codings made so far. */
type Made = { counts: string; bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer } };

export type StoredAnswer = {
  key: string;
  status: number;
  /** the answer's own headers, none internal */
  headers: Array<[string, string]>;
  /** a page's CSP nonce (its scripts carry it); null: an /api answer (the JSON policy) */
  nonce: string | null;
  /** the smallest body given coded (a whole JSON answer: COMPRESS_MIN_BYTES; a streamed page: any) */
  codedFrom: number;
  /** the body as stored (with the view counts it was made with) */
  body: Buffer;
  counts: CountSites;
  /** the last body made; kept unless the answer counts what it shows (it would change at every hit) */
  made: Made | null;
  keepsMade: boolean;
  /** what each hit counts */
  hits: CountHit[];
  visitorsOnly: boolean;
  contentVersion: number;
  dataVersion: number;
  blogVersion: number | null;
  /** the views it lists by, at the versions it was made at */
  views: Array<[ViewDependency, number]>;
  storedAt: number;
  ttlMs: number;
};

const sizeOf = (entry: StoredAnswer) =>
  ANSWER_OVERHEAD_BYTES +
  entry.key.length +
  entry.body.length +
  entry.counts.ids.length * COUNT_SITE_BYTES +
  Object.values(entry.made?.bodies ?? {}).reduce((sum, body) => sum + (body === entry.body ? 0 : body.length), 0);

const store = new LRUCache<string, StoredAnswer>({
  max: STORE_MAX_ANSWERS,
  maxSize: STORE_MAX_BYTES,
  sizeCalculation: (entry) => Math.max(1, sizeOf(entry)),
  dispose: (entry) => {
    for (const id of entry.counts.ids) unwatchViews(id);
  },
});

function fresh(entry: StoredAnswer): boolean {
  return (
    entry.contentVersion === contentVersion() &&
    entry.dataVersion === dataVersion() &&
    (entry.blogVersion === null || entry.blogVersion === blogVersion()) &&
    entry.views.every(([kind, version]) => viewsVersion(kind) === version) &&
    Date.now() - entry.storedAt < entry.ttlMs
  );
}

/**
 * The stored answer under `key` that may be given to this caller (`visitor`: no session,
 * no token), or null. A stale one is dropped.
 */
export function storedAnswer(key: string, visitor: boolean): StoredAnswer | null {
  const entry = store.get(key);
  if (!entry) return null;
  if (!fresh(entry)) {
    store.delete(key);
    return null;
  }
  return entry.visitorsOnly && !visitor ? null : entry;
}

/** Counts a hit as the app would have counted the request: the promises to wait for before the answer goes. */
export function countHit(entry: StoredAnswer, hit: Hit): Array<Promise<unknown>> {
  const waits: Array<Promise<unknown>> = [];
  for (const count of entry.hits) {
    const wait = count(hit);
    if (wait) waits.push(wait);
  }
  return waits;
}

/** One coding setting for every answer the front codes, made once per stored body. */
export function encode(body: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case "br":
      return zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          // a window as large as the body and no larger: the default 4 MB is allocated for
          // every answer (20 % slower on a 15 KB search answer, and memory malloc keeps)
          [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(body.length + 1)))),
        },
      });
    case "gzip":
      return zlib.gzipSync(body);
    case "deflate":
      return zlib.deflateSync(body);
    default:
      return body;
  }
}

/**
 * The body to give for the coding the client asked for (identity for a HEAD), with the
 * coding it is in: plain when it is smaller than the answer's `codedFrom`, as the express
 * path's `compression` would send it.
 */
export function bodyOf(entry: StoredAnswer, wanted: Encoding): { body: Buffer; encoding: Encoding } {
  const { ranges, base, seen, watches } = entry.counts;
  const counts = watches.map((watch, n) => base[n] + (watch.count - seen[n]));
  const signature = counts.join(",");
  let made = entry.made;
  if (made?.counts !== signature) {
    let identity = entry.body;
    if (counts.length) {
      const parts: Buffer[] = [];
      let at = 0;
      counts.forEach((count, n) => {
        parts.push(entry.body.subarray(at, ranges[2 * n]), Buffer.from(String(count)));
        at = ranges[2 * n + 1];
      });
      parts.push(entry.body.subarray(at));
      identity = Buffer.concat(parts);
    }
    made = { counts: signature, bodies: { identity } };
    if (entry.keepsMade) remade(entry, made);
  }
  const identity = made.bodies.identity;
  const encoding = identity.length < entry.codedFrom ? "identity" : wanted;
  if (encoding === "identity") return { body: identity, encoding };
  let body = made.bodies[encoding];
  if (!body) {
    body = made.bodies[encoding] = encode(identity, encoding);
    if (entry.keepsMade) remade(entry, made);
  }
  return { body, encoding };
}

/** Notes a new made body (or coding) of a stored answer: its size is counted again. */
function remade(entry: StoredAnswer, made: Made) {
  entry.made = made;
  if (store.peek(entry.key) === entry) store.set(entry.key, entry);
}

/** A made answer the front may store. */
export type Answer = {
  status: number;
  /** without the internal headers (see `internalOf`) */
  headers: Headers;
  body: Buffer;
  /** a page's CSP nonce; null for /api answers */
  nonce: string | null;
  /** what the internal headers named: the counting of each hit */
  hits: CountHit[];
};

/**
 * Takes the internal headers out of an answer's headers (they never go out), and answers
 * the counting they name for each hit.
 */
export function internalOf(headers: Headers): CountHit[] {
  const hits: CountHit[] = [];
  for (const counter of HIT_COUNTERS) {
    const value = headers.get(counter.header);
    if (value === null) continue;
    headers.delete(counter.header);
    const hit = counter.counterFor(value);
    if (hit) hits.push(hit);
  }
  return hits;
}

/**
 * Stores an answer when it may be stored (see the top of this file): `rule` is its
 * `sharingOf()`, `versions` what was read before it was made, `visitor` whether the
 * request it answers was a visitor's (an answer for visitors only is stored from a
 * visitor's request: what it read of the caller is nobody's).
 */
export function storeAnswer(key: string, versions: Versions, answer: Answer, rule: StoreRule | null, visitor: boolean): void {
  const { headers, body } = answer;
  const type = headers.get("Content-Type") ?? "";
  if (
    !rule ||
    answer.status !== 200 ||
    (rule.visitorsOnly && !visitor) ||
    headers.has("Set-Cookie") ||
    headers.has("Content-Encoding") ||
    /no-transform/.test(headers.get("Cache-Control") ?? "") ||
    (type.startsWith("text/html") && !answer.nonce) ||
    body.length > ANSWER_MAX_BYTES
  )
    return;
  const whole = sentWhole(type);
  const text = whole ? body.toString("utf8") : "";
  const sites = whole ? viewCountSites(text) : { matches: [], products: [] };
  if (!sites) return;
  // on PostgreSQL the counts move with every instance's views, which this one does not
  // watch: an answer showing counts is made anew each time
  if (sites.matches.length && viewsWrittenAtOnce()) return;
  // nothing it shows moved while it was made, but by its own counting (a count read before
  // another request's view and watched only after it would stay one short)
  const scope = requestScope.getStore();
  const shown = new Set(scope?.dependsOn ?? []);
  if (sites.matches.length) shown.add("product-views");
  for (const kind of shown) {
    const own = kind === "product-views" ? (scope?.viewsCounted ?? 0) : 0;
    if (viewsVersion(kind) - versions.views[kind] !== own) return;
  }

  // the counts' byte ranges, found in the bytes in the order the text showed them (the
  // marker and the digits are ASCII: the n-th in the text is the n-th in the bytes)
  const counts: CountSites = { ranges: [], ids: [], base: [], seen: [], watches: [] };
  let at = 0;
  for (const [n, match] of sites.matches.entries()) {
    const start = body.indexOf(VIEW_COUNT_MARK, at) + VIEW_COUNT_MARK.length;
    const end = start + match[1].length;
    if (start < VIEW_COUNT_MARK.length || body.toString("latin1", start, end) !== match[1]) {
      for (const id of counts.ids) unwatchViews(id);
      return;
    }
    const watch = watchViews(sites.products[n].id);
    counts.ranges.push(start, end);
    counts.ids.push(sites.products[n].id);
    counts.base.push(sites.products[n].count);
    counts.seen.push(watch.count);
    counts.watches.push(watch);
    at = end;
  }
  const kept: Array<[string, string]> = [];
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "content-length") kept.push([name, value]);
  });
  store.set(key, {
    key,
    status: 200,
    headers: kept,
    nonce: answer.nonce,
    codedFrom: whole ? COMPRESS_MIN_BYTES : 0,
    body,
    counts,
    made: null,
    keepsMade: !(counts.ids.length && answer.hits.length),
    hits: answer.hits,
    visitorsOnly: rule.visitorsOnly,
    contentVersion: versions.contentVersion,
    dataVersion: versions.dataVersion,
    blogVersion: versions.blogVersion,
    views: [...(scope?.dependsOn ?? [])].map((kind) => [kind, viewsVersion(kind)]),
    storedAt: Date.now(),
    ttlMs: rule.ttlMs,
  });
}

const VIEW_COUNT = /"view_count":(\d+)/g;
const VIEW_COUNT_MARK = '"view_count":';

/**
 * The products of a JSON answer that show a view count, in the order their counts appear
 * in its text (JSON.stringify writes keys in order, depth first), or null when the text
 * and the data do not agree (the answer is then not stored).
 */
function viewCountSites(text: string): { matches: RegExpExecArray[]; products: Array<{ id: number; count: number }> } | null {
  const matches = [...text.matchAll(VIEW_COUNT)];
  if (!matches.length) return { matches, products: [] };
  const products: Array<{ id: number; count: number }> = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const object = value as Record<string, unknown>;
      for (const [key, child] of Object.entries(object)) {
        if (key === "view_count" && typeof child === "number" && typeof object.id === "number")
          products.push({ id: object.id, count: child });
        else walk(child);
      }
    }
  };
  try {
    walk(JSON.parse(text));
  } catch {
    return null;
  }
  if (products.length !== matches.length || products.some((product, n) => String(product.count) !== matches[n][1])) return null;
  return { matches, products };
}

/** Drops every stored answer (tests and shutdown). */
export function clearStoredAnswers(): void {
  store.clear();
}

/** The answers stored and the bytes they hold (the benchmark reports them). */
export function storedAnswersSize(): { answers: number; bytes: number } {
  return { answers: store.size, bytes: store.calculatedSize };
}
