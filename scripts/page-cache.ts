/**
 * Rendered pages kept for visitors without a session (docs/decisions/012-page-cache.md).
 *
 * A storefront page is the same for every visitor without a session who asks for the same
 * address in the same currency, until the content changes. The first request renders it
 * through Remix as usual; the next ones get the stored HTML straight from here, before the
 * rest of the server runs, with:
 * - a fresh CSP nonce put in per response (the stored copy holds a placeholder);
 * - the product's view counted (its id comes from the page's X-Product-Id header);
 * - gzip made per response (fast level) when the browser takes it.
 * A copy is dropped when the content version moves (catalogue, settings, rates), when
 * another process writes the database (SQLite's data_version), or after a minute (lists
 * ordered by views).
 */
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { contentVersion, PRODUCT_ID_HEADER } from "../app/lib/content-version.server";
import { countsAsView } from "../app/lib/crawlers";
import { dataVersion, getDb } from "../app/lib/db.server";
import { log } from "../app/lib/log.server";
import { incrementViewCount } from "../app/models/product.server";

const MAX_ENTRIES = 2000;
const MAX_BYTES_PER_PAGE = 512 * 1024;
const TTL_MS = 60_000;
const NONCE_PLACEHOLDER = "\u0000csp-nonce\u0000";

/** The storefront pages a visitor sees alike (never accounts, admin, API or assets). */
const CACHEABLE = /^\/(search|category\/[^/]+|product\/[^/]+|(weidian|taobao|tmall|1688)\/[^/]+)?$/;

type Entry = {
  html: string;
  headers: Array<[string, string]>;
  productId: number | null;
  contentVersion: number;
  dataVersion: number;
  storedAt: number;
};

const entries = new Map<string, Entry>();

function cookieNames(req: Request): string[] {
  return (req.headers.cookie ?? "").split(";").map((part) => part.split("=")[0].trim());
}

function currencyOf(req: Request): string {
  const match = /(?:^|;\s*)currency=([A-Z]{3})/.exec(req.headers.cookie ?? "");
  return match?.[1] ?? "";
}

/** The cache key of a request, or null when its answer may differ per visitor. */
export function pageCacheKey(req: Request): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (!CACHEABLE.test(req.path)) return null;
  // a session (a logged-in page) or a flash message is this visitor's own
  if (cookieNames(req).some((name) => name === "sid" || name === "toast")) return null;
  // Remix data requests and anything asking for JSON
  if (req.path.endsWith(".data") || "_data" in req.query || "_routes" in req.query) return null;
  return `${req.originalUrl}\n${currencyOf(req)}`;
}

function fresh(entry: Entry, now: number): boolean {
  return entry.contentVersion === contentVersion() && entry.dataVersion === dataVersion() && now - entry.storedAt < TTL_MS;
}

/** Serves a stored page, or notes the key so the Remix handler can store its answer. */
export function servePageCache(req: Request, res: Response, next: NextFunction) {
  const key = pageCacheKey(req);
  if (!key) return next();
  const entry = entries.get(key);
  const now = Date.now();
  if (!entry || !fresh(entry, now)) {
    if (entry) entries.delete(key);
    res.locals.pageCache = { key, contentVersion: contentVersion(), dataVersion: dataVersion() };
    return next();
  }
  // most recently used last
  entries.delete(key);
  entries.set(key, entry);

  if (entry.productId !== null && countsAsView(req.get("User-Agent"), typeof req.query.incrementView === "string" ? req.query.incrementView : null)) {
    incrementViewCount(getDb(), entry.productId).catch((error) => log.warn(`page cache: counting a view failed: ${(error as Error).message}`));
  }
  const html = entry.html.replaceAll(NONCE_PLACEHOLDER, String(res.locals.cspNonce ?? ""));
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", "hit");
  res.setHeader("Vary", "Accept-Encoding");
  let body = Buffer.from(html);
  if (/\bgzip\b/.test(req.get("Accept-Encoding") ?? "")) {
    body = zlib.gzipSync(body, { level: 1 });
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", body.length);
  res.status(200).end(req.method === "HEAD" ? undefined : body);
}

/**
 * Called by the Remix handler with its answer to a request servePageCache noted. Stores
 * a successful HTML page that sets no cookie; always answers the Response to send (the
 * body may have been read).
 */
export async function storePageCache(res: Response, response: globalThis.Response): Promise<globalThis.Response> {
  const noted = res.locals.pageCache as { key: string; contentVersion: number; dataVersion: number } | undefined;
  const productId = response.headers.get(PRODUCT_ID_HEADER);
  const headers = new Headers(response.headers);
  headers.delete(PRODUCT_ID_HEADER);
  const cacheable =
    noted &&
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie") &&
    !/no-store|private/.test(response.headers.get("Cache-Control") ?? "");
  if (!cacheable || !noted) return new globalThis.Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const html = await response.text();
  const nonce = String(res.locals.cspNonce ?? "");
  if (html.length <= MAX_BYTES_PER_PAGE && nonce) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    headers.delete("Content-Length");
    entries.set(noted.key, {
      html: html.replaceAll(nonce, NONCE_PLACEHOLDER),
      headers: [...headers.entries()].filter(([name]) => name.toLowerCase() !== "set-cookie"),
      productId: productId && /^\d+$/.test(productId) ? Number(productId) : null,
      contentVersion: noted.contentVersion,
      dataVersion: noted.dataVersion,
      storedAt: Date.now(),
    });
  }
  return new globalThis.Response(html, { status: 200, statusText: response.statusText, headers });
}

/** Drops every stored page (tests and shutdown). */
export function clearPageCache(): void {
  entries.clear();
}
