/**
 * Rendered pages kept for visitors without a session (docs/decisions/012-page-cache.md).
 *
 * A storefront page is the same for every visitor without a session who asks for the same
 * address in the same currency (and with the same preferred agent), until the content changes. The first request renders it
 * through Remix as usual and the answer is stored, gzipped once, with the CSP header it
 * was made with (its nonce was drawn for that render). The next ones are answered by the
 * server's front (scripts/fast-lane.ts) from here, before express runs, with the
 * product's view counted (its id comes from the page's X-Product-Id header).
 * A copy is dropped when the content version moves (catalogue, settings, rates), when
 * another process writes the database (SQLite's data_version), or after a minute (lists
 * ordered by views).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { BLOG_POST_ID_HEADER, blogVersion, contentVersion, PRODUCT_ID_HEADER, SHARED_ANSWER_HEADER } from "../app/lib/content-version.server";
import { countsAsView } from "../app/lib/crawlers";
import { dataVersion } from "../app/lib/db.server";
import { countPostViewBy } from "../app/services/blog-views.server";
import { countProductView } from "../app/services/view-counts.server";
import { log } from "../app/lib/log.server";

const MAX_ENTRIES = 2000;
/** the pages kept (plain and gzipped), in bytes: the memory they may take */
const MAX_BYTES = 16 * 1024 * 1024;
let storedBytes = 0;
const MAX_BYTES_PER_PAGE = 512 * 1024;
const TTL_MS = 60_000;

/** The storefront pages a visitor sees alike (never accounts, admin, API or assets). */
const CACHEABLE = /^\/(search|category\/[^/]+|product\/[^/]+|(weidian|taobao|tmall|1688)\/[^/]+)?$/;
/**
 * The public blog pages (decision 017): the list, categories, tags and posts; never the
 * feeds (they answer conditional requests with 304 themselves).
 */
const BLOG_PAGE = /^\/blog(\/(category|tag)\/[^/]+|\/(?!feed\.xml$|atom\.xml$)[^/]+)?$/;

type Entry = {
  identity: Buffer;
  gzip: Buffer;
  /** every header of the answer, Content-Security-Policy (with the render's nonce) included */
  headers: Array<[string, string]>;
  productId: number | null;
  /** the public post of a blog post page, whose views a hit counts */
  blogPostId: number | null;
  contentVersion: number;
  dataVersion: number;
  /** for blog pages: the blog's version they were rendered at (null: not a blog page) */
  blogVersion: number | null;
  storedAt: number;
};

/** What the Remix handler needs to store its answer to a request that may be kept. */
export type PageCacheNote = { key: string; contentVersion: number; dataVersion: number; blogVersion: number | null };

const entries = new Map<string, Entry>();

function drop(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  storedBytes -= entry.identity.length + entry.gzip.length;
}

function hasVisitorCookie(cookie: string | undefined): boolean {
  if (!cookie) return false;
  // a session (a logged-in page) or a flash message is this visitor's own
  return cookie.split(";").some((part) => {
    const name = part.split("=")[0].trim();
    return name === "sid" || name === "toast";
  });
}

/** The visitor's choices a page depends on: the display currency and the preferred shopping agent. */
function choicesOf(cookie: string | undefined): string {
  const currency = /(?:^|;\s*)currency=([A-Z]{3})/.exec(cookie ?? "")?.[1] ?? "";
  const agent = /(?:^|;\s*)agent=(\d{1,9})/.exec(cookie ?? "")?.[1] ?? "";
  return agent ? `${currency}|${agent}` : currency;
}

/** The cache key of a request (its raw URL as sent), or null when its answer may differ per visitor. */
export function pageCacheKey(method: string | undefined, url: string, headers: IncomingMessage["headers"]): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  if (!CACHEABLE.test(pathname) && !BLOG_PAGE.test(pathname)) return null;
  if (hasVisitorCookie(headers.cookie)) return null;
  // Remix data requests and anything asking for JSON
  if (query !== -1 && /[?&](_data|_routes)(=|&|$)/.test(url.slice(query))) return null;
  return `${url}\n${choicesOf(headers.cookie)}`;
}

/** Notes a request whose answer may be stored (the versions are read before it renders). */
export function notePageCache(method: string | undefined, url: string, headers: IncomingMessage["headers"]): PageCacheNote | null {
  const key = pageCacheKey(method, url, headers);
  if (!key) return null;
  return { key, contentVersion: contentVersion(), dataVersion: dataVersion(), blogVersion: url.startsWith("/blog") ? blogVersion() : null };
}

function fresh(entry: Entry, now: number): boolean {
  return (
    entry.contentVersion === contentVersion() &&
    entry.dataVersion === dataVersion() &&
    (entry.blogVersion === null || entry.blogVersion === blogVersion()) &&
    now - entry.storedAt < TTL_MS
  );
}

function incrementViewParam(url: string): string | null {
  const query = url.indexOf("?");
  return query === -1 ? null : new URLSearchParams(url.slice(query + 1)).get("incrementView");
}

/**
 * Answers a request from a stored page, or returns false (nothing sent) when there is
 * none fresh for it.
 */
export function servePageCache(req: IncomingMessage, res: ServerResponse, clientIp: () => string = () => req.socket.remoteAddress ?? ""): boolean {
  const url = req.url ?? "/";
  const key = pageCacheKey(req.method, url, req.headers);
  if (!key) return false;
  const entry = entries.get(key);
  if (!entry) return false;
  if (!fresh(entry, Date.now())) {
    drop(key);
    return false;
  }
  // most recently used last
  entries.delete(key);
  entries.set(key, entry);

  if (entry.productId !== null && countsAsView(req.headers["user-agent"], incrementViewParam(url))) countProductView(entry.productId);
  if (entry.blogPostId !== null) {
    const viewer = { userAgent: req.headers["user-agent"] ?? null, incrementView: incrementViewParam(url), clientIp: clientIp(), userId: null };
    countPostViewBy(entry.blogPostId, viewer).catch((error: unknown) => log.warn(`blog: a view of post #${entry.blogPostId} was not counted: ${String(error)}`));
  }
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", "hit");
  res.setHeader("Vary", "Accept-Encoding");
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? entry.gzip : entry.identity;
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  res.statusCode = 200;
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

/**
 * Called by the Remix handler with its answer to a request notePageCache() noted. Stores
 * a successful HTML page that sets no cookie, with the headers already on `res` (the
 * security headers and the CSP of this render); always answers the Response to send
 * (the body may have been read).
 */
export async function storePageCache(note: PageCacheNote | null, res: ServerResponse, response: globalThis.Response): Promise<globalThis.Response> {
  const productId = response.headers.get(PRODUCT_ID_HEADER);
  const blogPostId = response.headers.get(BLOG_POST_ID_HEADER);
  const headers = new Headers(response.headers);
  // between the loaders and the server only
  headers.delete(PRODUCT_ID_HEADER);
  headers.delete(BLOG_POST_ID_HEADER);
  headers.delete(SHARED_ANSWER_HEADER);
  const cacheable =
    note &&
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie") &&
    !/no-store|private/.test(response.headers.get("Cache-Control") ?? "") &&
    res.hasHeader("Content-Security-Policy");
  if (!cacheable || !note) return new globalThis.Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const html = await response.text();
  if (html.length <= MAX_BYTES_PER_PAGE) {
    headers.delete("Content-Length");
    const sent: Array<[string, string]> = [];
    for (const name of res.getHeaderNames()) {
      if (["set-cookie", "content-length", "content-encoding", "vary"].includes(name)) continue;
      const value = res.getHeader(name);
      if (value !== undefined) sent.push([name, String(value)]);
    }
    const identity = Buffer.from(html);
    const gzip = zlib.gzipSync(identity, { level: 9 });
    drop(note.key);
    while (entries.size && (entries.size >= MAX_ENTRIES || storedBytes + identity.length + gzip.length > MAX_BYTES)) drop(entries.keys().next().value!);
    storedBytes += identity.length + gzip.length;
    entries.set(note.key, {
      identity,
      gzip,
      headers: [...sent, ...[...headers.entries()].filter(([name]) => name.toLowerCase() !== "set-cookie")],
      productId: productId && /^\d+$/.test(productId) ? Number(productId) : null,
      blogPostId: blogPostId && /^\d+$/.test(blogPostId) ? Number(blogPostId) : null,
      contentVersion: note.contentVersion,
      dataVersion: note.dataVersion,
      blogVersion: note.blogVersion,
      storedAt: Date.now(),
    });
  }
  return new globalThis.Response(html, { status: 200, statusText: response.statusText, headers });
}

/** Drops every stored page (tests and shutdown). */
export function clearPageCache(): void {
  entries.clear();
  storedBytes = 0;
}
