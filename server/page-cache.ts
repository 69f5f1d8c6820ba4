/**
 * Rendered pages kept for visitors without a session (docs/decisions/012-page-cache.md,
 * 022-front-rules.md for for whom and under which key, and 034 for what: only a page that
 * says so, `Cache-Control: public, s-maxage=N`, and read nothing of one visitor's own).
 *
 * A storefront page is the same for every visitor without a session who asks for the same
 * address with the same display currency, preferred agent and language, until what it shows changes.
 * The first GET renders it through Remix as usual and the answer is stored with the
 * headers of that render (its CSP nonce was drawn for it). The next requests are answered
 * by the server's front (server/fast-lane.ts) from here, before express runs, exactly as
 * the express path would answer them: the same security headers for this request, the
 * content coding `compression` would choose, no body for HEAD; the product's view counted.
 * A copy is dropped when what it shows may have changed: the content version (catalogue,
 * settings, rates), the blog's version for blog pages, SQLite's data_version (another
 * process wrote), the views for pages that list by views, and after a minute.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import {
  BLOG_POST_ID_HEADER,
  blogVersion,
  contentVersion,
  PRODUCT_ID_HEADER,
  SEARCH_TERM_HEADER,
  viewsVersion,
  type ViewDependency,
} from "../app/lib/content-version.server";
import { countsAsView } from "../app/lib/crawlers";
import { dataVersion } from "../app/lib/db.server";
import { requestScope } from "../app/lib/request-scope.server";
import { countPostViewBy } from "../app/services/blog-views.server";
import { countProductView, viewsWrittenAtOnce, writeViewsNow } from "../app/services/view-counts.server";
import { countSearch, searchCountsWritten } from "../app/services/search.server";
import { log } from "../app/lib/log.server";
import { sharingOf } from "../app/lib/shared-answers.server";
import { appRequestUrl, choicesKey, mayCarrySession, negotiateEncoding, varyWithEncoding } from "./front-rules";
import { KeptMap, type Used } from "./kept-map";

const MAX_ENTRIES = 2000;
/** the pages kept (plain and compressed), in bytes: the memory they may take */
const MAX_BYTES = 16 * 1024 * 1024;
let storedBytes = 0;
const MAX_BYTES_PER_PAGE = 512 * 1024;

/** Paths that are never pages (assets, uploads, the API): not looked up. */
const NEVER_PAGES = /^\/(?:build|uploads|api)(?:\/|$)/;

/** Headers between the loaders and the server, never sent. */
const INTERNAL_HEADERS = [PRODUCT_ID_HEADER, BLOG_POST_ID_HEADER, SEARCH_TERM_HEADER];

type Versions = {
  contentVersion: number;
  dataVersion: number;
  /** blog pages: the blog's version they were rendered at (null: not a blog page) */
  blogVersion: number | null;
};

type Entry = Used &
  Versions & {
    /** pages listing by views: the versions of those views they were rendered at */
    views: Array<[ViewDependency, number]>;
    identity: Buffer;
    /** made on first use (most browsers ask for br, monitors for nothing) */
    br: Buffer | null;
    gzip: Buffer | null;
    /** the headers of the render's Response (content type, cache control...), none internal */
    headers: Array<[string, string]>;
    /** the CSP nonce of the render: the page's scripts carry it */
    nonce: string;
    productId: number | null;
    /** the public post of a blog post page, whose views a hit counts */
    blogPostId: number | null;
    /** the search a results page shows: counted for the popular searches at each hit */
    searchTerm: string | null;
    storedAt: number;
    /** how long it may be given: the page's own s-maxage, at most a minute */
    ttlMs: number;
  };

/** What the Remix handler needs to store its answer to a request that may be kept. */
export type PageCacheNote = { key: string; versions: Versions; views: Record<ViewDependency, number> };

const entries = new KeptMap<Entry>();

const sizeOf = (entry: Entry) => entry.identity.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0);

function drop(key: string) {
  const entry = entries.delete(key);
  if (entry) storedBytes -= sizeOf(entry);
}

/**
 * The key of a request: the address the app reads (`appRequestUrl`: the same parse as the
 * app's, so a raw `#`, a dot segment or an odd Host lead where they lead the app) and the
 * choices the app reads from its cookies and Accept-Language; null when its answer may
 * differ per visitor (a session or a flash message) or it is not a page.
 */
function pageKey(req: IncomingMessage, trustProxy: number): { key: string; url: URL } | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  // assets and uploads, before anything is parsed (a dot segment that leads out of them only misses)
  if (NEVER_PAGES.test(req.url ?? "/")) return null;
  if (mayCarrySession(req.headers.cookie)) return null;
  const url = appRequestUrl(req, trustProxy);
  if (!url) return null;
  return { key: `${url.href}\n${choicesKey(url.pathname, req.headers.cookie, req.headers["accept-language"])}`, url };
}

/**
 * Notes a request whose answer may be stored, with the versions read before it renders.
 * Only GET: a HEAD answer has no body to keep (a HEAD is served from a GET's copy).
 */
export function notePageCache(req: IncomingMessage, trustProxy: number): PageCacheNote | null {
  if (req.method !== "GET") return null;
  const page = pageKey(req, trustProxy);
  if (!page) return null;
  const { key } = page;
  const { pathname } = page.url;
  const blog = pathname === "/blog" || pathname.startsWith("/blog/");
  return {
    key,
    versions: {
      contentVersion: contentVersion(),
      dataVersion: dataVersion(),
      blogVersion: blog ? blogVersion() : null,
    },
    views: {
      "product-views": viewsVersion("product-views"),
      "written-product-views": viewsVersion("written-product-views"),
      "popular-posts": viewsVersion("popular-posts"),
      "popular-searches": viewsVersion("popular-searches"),
    },
  };
}

function fresh(entry: Entry, now: number): boolean {
  return (
    entry.contentVersion === contentVersion() &&
    entry.dataVersion === dataVersion() &&
    (entry.blogVersion === null || entry.blogVersion === blogVersion()) &&
    entry.views.every(([kind, version]) => viewsVersion(kind) === version) &&
    now - entry.storedAt < entry.ttlMs
  );
}

function compressed(entry: Entry, encoding: "br" | "gzip"): Buffer {
  const before = sizeOf(entry);
  const body =
    encoding === "br"
      ? (entry.br ??= zlib.brotliCompressSync(entry.identity, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: entry.identity.length },
        }))
      : (entry.gzip ??= zlib.gzipSync(entry.identity, { level: 9 }));
  storedBytes += sizeOf(entry) - before;
  return body;
}

export type PageRequestContext = {
  /** TRUST_PROXY's hop count: how the app reads the request's address */
  trustProxy: number;
  /** the request came over https (directly or, with TRUST_PROXY, through the proxy) */
  secure: boolean;
  clientIp: () => string;
  /** the security headers the express path sends with a page rendered with `nonce` */
  securityHeaders: (nonce: string, secure: boolean) => Array<[string, string]>;
  /** work that must end before the database closes (a view written before the page goes) */
  track?: (work: Promise<unknown>) => void;
};

/**
 * Answers a request from a stored page, or returns false (nothing sent) when there is
 * none fresh for it, or when the client asks for a coding not kept (deflate): the express
 * path answers those.
 */
export function servePageCache(req: IncomingMessage, res: ServerResponse, context: PageRequestContext): boolean {
  const page = pageKey(req, context.trustProxy);
  if (!page) return false;
  const { key } = page;
  const entry = entries.peek(key);
  if (!entry) return false;
  if (!fresh(entry, Date.now())) {
    drop(key);
    return false;
  }
  const head = req.method === "HEAD";
  // compression leaves HEAD answers uncoded
  const encoding = head ? "identity" : negotiateEncoding(req.headers["accept-encoding"]);
  if (encoding === "deflate") return false;
  entries.touch(entry);

  // what the page counts; on PostgreSQL it is written before the page goes, so the next
  // request, whichever instance takes it, reads it (on SQLite the blog view is written
  // after, and views and searches gathered in memory)
  const writes: Array<Promise<unknown>> = [];
  const writeFirst = viewsWrittenAtOnce();
  const incrementView = page.url.searchParams.get("incrementView");
  if (entry.productId !== null && countsAsView(req.headers["user-agent"], incrementView)) {
    countProductView(entry.productId);
    if (writeFirst) writes.push(writeViewsNow());
  }
  if (entry.searchTerm !== null && countsAsView(req.headers["user-agent"], null)) {
    countSearch(entry.searchTerm);
    if (writeFirst) writes.push(searchCountsWritten());
  }
  if (entry.blogPostId !== null) {
    const viewer = {
      userAgent: req.headers["user-agent"] ?? null,
      incrementView,
      clientIp: context.clientIp(),
      userId: null,
    };
    const postId = entry.blogPostId;
    const counted = countPostViewBy(postId, viewer).catch((error: unknown) =>
      log.warn(`blog: a view of post #${postId} was not counted: ${String(error)}`),
    );
    if (writeFirst) writes.push(counted);
  }
  for (const [name, value] of context.securityHeaders(entry.nonce, context.secure)) res.setHeader(name, value);
  let vary: string | undefined;
  for (const [name, value] of entry.headers) {
    if (name === "vary") vary = value;
    else res.setHeader(name, value);
  }
  res.setHeader("Vary", varyWithEncoding(vary));
  res.setHeader("X-Page-Cache", "hit");
  const body = encoding === "identity" ? entry.identity : compressed(entry, encoding);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.statusCode = 200;
  if (writes.length) {
    const work = Promise.all(writes)
      .catch(() => undefined)
      .then(() => res.end(head ? undefined : body));
    context.track?.(work);
  } else res.end(head ? undefined : body);
  return true;
}

/**
 * Called by the Remix handler with every answer it makes (`note` null when the request may
 * not be given a stored page). Stores a successful HTML page that says it may be kept
 * (sharingOf: `Cache-Control: public, s-maxage=N`, a Vary the key covers), sets no cookie
 * and read nothing of one visitor's own; an answer that did read such a thing says so
 * (`private, no-store`), stored or not, for every cache after this one.
 * Always answers the Response to send (the body may have been read). `nonce` is the CSP
 * nonce the page was rendered with.
 */
export async function storePageCache(
  note: PageCacheNote | null,
  nonce: string,
  response: globalThis.Response,
): Promise<globalThis.Response> {
  const productId = response.headers.get(PRODUCT_ID_HEADER);
  const blogPostId = response.headers.get(BLOG_POST_ID_HEADER);
  const searchTerm = response.headers.get(SEARCH_TERM_HEADER);
  const headers = new Headers(response.headers);
  for (const name of INTERNAL_HEADERS) headers.delete(name);
  const rule = sharingOf(headers);
  const cacheable =
    note &&
    rule &&
    nonce &&
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie") &&
    !response.headers.has("Content-Encoding") &&
    !/no-transform/.test(response.headers.get("Cache-Control") ?? "");
  if (!cacheable || !note || !rule)
    return new globalThis.Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const html = await response.text();
  const answer = new globalThis.Response(html, { status: 200, statusText: response.statusText, headers });
  const identity = Buffer.from(html);
  if (identity.length > MAX_BYTES_PER_PAGE) return answer;

  // a page listing by views is kept only if no such view moved while it was rendered
  const views: Entry["views"] = [];
  for (const kind of requestScope.getStore()?.dependsOn ?? []) {
    if (viewsVersion(kind) !== note.views[kind]) return answer;
    views.push([kind, note.views[kind]]);
  }
  const { versions } = note;
  const kept: Array<[string, string]> = [];
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "content-length") kept.push([name, value]);
  });
  drop(note.key);
  while (entries.size && (entries.size >= MAX_ENTRIES || storedBytes + identity.length > MAX_BYTES)) drop(entries.oldest()!);
  storedBytes += identity.length;
  entries.set(note.key, {
    used: 0,
    identity,
    br: null,
    gzip: null,
    headers: kept,
    nonce,
    productId: productId && /^\d+$/.test(productId) ? Number(productId) : null,
    blogPostId: blogPostId && /^\d+$/.test(blogPostId) ? Number(blogPostId) : null,
    searchTerm: searchTerm ? decodeURIComponent(searchTerm) : null,
    contentVersion: versions.contentVersion,
    dataVersion: versions.dataVersion,
    blogVersion: versions.blogVersion,
    views,
    storedAt: Date.now(),
    ttlMs: rule.ttlMs,
  });
  return answer;
}

/** Drops every stored page (tests and shutdown). */
export function clearPageCache(): void {
  entries.clear();
  storedBytes = 0;
}

/** The pages kept and the bytes they hold (the benchmark reports them). */
export function pageCacheSize(): { pages: number; bytes: number } {
  return { pages: entries.size, bytes: storedBytes };
}
