/**
 * The server's front (docs/decisions/013-fast-lane.md): the few answers that are asked
 * for most often are given here, on the bare node:http request, before express and
 * Remix's router run (together about 2 ms of CPU per request, more than the work itself):
 * - stored storefront pages for visitors without a session (scripts/page-cache.ts);
 * - the public catalogue reads of the API (product, product by item id, search, lists,
 *   categories, exchange rates): their route modules' own loaders, taken from the Remix
 *   build and called directly, so there is one implementation of each.
 * Everything else goes on to express. The answers carry the same security headers and
 * are logged in the same line format as express's.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import type { Env } from "../app/lib/env.server";
import { log } from "../app/lib/log.server";
import { newRequestScope, requestScope } from "../app/lib/request-scope.server";
import { contentVersion, PRODUCT_ID_HEADER, SHARED_ANSWER_HEADER } from "../app/lib/content-version.server";
import { countsAsView } from "../app/lib/crawlers";
import { dataVersion } from "../app/lib/db.server";
import { SESSION_COOKIE_NAME } from "../app/lib/session.server";
import { countProductView, unwatchViews, watchViews, type ViewWatch } from "../app/services/view-counts.server";
import { servePageCache } from "./page-cache";

/** Headers between the loaders and the front, never sent. */
const INTERNAL_HEADERS = new Set(["set-cookie", PRODUCT_ID_HEADER.toLowerCase(), SHARED_ANSWER_HEADER.toLowerCase()]);

/** Answers below this size are sent as they are (compressing costs more than it saves). */
export const COMPRESS_MIN_BYTES = 4096;

type FastRoute = { pattern: RegExp; routeId: string; path: string; params: string[] };

/**
 * GET paths answered by a route loader directly. Each pattern is narrower than (or equal
 * to) the route's own path, and no other route matches what it matches, so the answer
 * is the one Remix's router would pick: `/api/products/(\d+)` never takes
 * `/api/products/search` or `/api/products/sync-external`.
 */
export const FAST_ROUTES: readonly FastRoute[] = [
  { pattern: /^\/api\/products\/search$/, routeId: "routes/api.products.search", path: "api/products/search", params: [] },
  { pattern: /^\/api\/products\/platform\/([^/]+)$/, routeId: "routes/api.products.platform.$itemId", path: "api/products/platform/:itemId", params: ["itemId"] },
  { pattern: /^\/api\/products\/(\d+)$/, routeId: "routes/api.products.$id", path: "api/products/:id", params: ["id"] },
  { pattern: /^\/api\/products$/, routeId: "routes/api.products._index", path: "api/products", params: [] },
  { pattern: /^\/api\/categories$/, routeId: "routes/api.categories", path: "api/categories", params: [] },
  { pattern: /^\/api\/exchange-rates$/, routeId: "routes/api.exchange-rates", path: "api/exchange-rates", params: [] },
];

/** Throws when a route of the table is missing from the build or has moved (checked at start). */
export function checkFastRoutes(build: ServerBuild): void {
  for (const route of FAST_ROUTES) {
    const found = build.routes[route.routeId];
    if (!found?.module.loader || found.path !== route.path) {
      throw new Error(`fast lane: route ${route.routeId} (${route.path}) is not in the build as expected (found ${found ? found.path : "nothing"})`);
    }
  }
}

// ------------------------------------------------------------------ kept answers
//
// Two kinds of loader answers are kept in memory and given again without running the
// loader (docs/decisions/013-fast-lane.md):
// - a product (the loader names it in X-Product-Id): the same for everyone but for its
//   view count, which moves with every view. It is kept as the text before and after
//   that number; each answer puts in the count it had when kept plus the views counted
//   since (watchViews() sees every view this process counts, by any path);
// - an answer the loader marks as the same for every visitor (X-Shared-Answer: search
//   and lists not ordered by views): given only to callers without a session or token.
// Both are dropped like stored pages: when the content version or SQLite's data_version
// moves, and after a minute. The key is the address without `incrementView` (it changes
// the counting, not the answer).

const KEPT_MAX = 5000;
/** the bodies kept, in bytes: the memory they may take */
const KEPT_MAX_BYTES = 8 * 1024 * 1024;
let keptBytes = 0;
const KEPT_TTL_MS = 60_000;
const VIEW_COUNT = /"view_count":(\d+)/;

type Kept = {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  /** bytes held (the body, or a product's text around its count) */
  size: number;
  forVisitorsOnly: boolean;
  /** a product's answer: its text around the view count, the count kept and the watch's count then */
  product: { id: number; before: Buffer; after: Buffer; base: number; seen: number; watch: ViewWatch } | null;
  contentVersion: number;
  dataVersion: number;
  storedAt: number;
};

const kept = new Map<string, Kept>();

function dropKept(key: string) {
  const entry = kept.get(key);
  if (!entry) return;
  kept.delete(key);
  keptBytes -= entry.size;
  if (entry.product) unwatchViews(entry.product.id);
}

function keptKey(url: string): string {
  const query = url.indexOf("?");
  if (query === -1 || !url.includes("incrementView", query)) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  params.delete("incrementView");
  const rest = params.toString();
  return rest ? `${url.slice(0, query)}?${rest}` : url.slice(0, query);
}

function incrementViewParam(url: string): string | null {
  const query = url.indexOf("?");
  return query === -1 ? null : new URLSearchParams(url.slice(query + 1)).get("incrementView");
}

/** A caller with a session cookie or a token may see more (or other) than a visitor. */
function isVisitor(req: IncomingMessage): boolean {
  if (req.headers.authorization) return false;
  const cookie = req.headers.cookie;
  return !cookie || !cookie.split(";").some((part) => part.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
}

function freshKept(key: string, req: IncomingMessage): Kept | null {
  const entry = kept.get(key);
  if (!entry) return null;
  if (entry.contentVersion !== contentVersion() || entry.dataVersion !== dataVersion() || Date.now() - entry.storedAt >= KEPT_TTL_MS) {
    dropKept(key);
    return null;
  }
  if (entry.forVisitorsOnly && !isVisitor(req)) return null;
  // most recently used last
  kept.delete(key);
  kept.set(key, entry);
  return entry;
}

type Versions = { contentVersion: number; dataVersion: number };

function keep(key: string, versions: Versions, answer: { status: number; headers: Array<[string, string]>; body: Buffer }, kind: { productId: number } | "visitors") {
  let product: Kept["product"] = null;
  if (kind !== "visitors") {
    const text = answer.body.toString("utf8");
    // the product's own count comes first: SKUs carry none, and inside JSON strings quotes are escaped
    const match = VIEW_COUNT.exec(text);
    if (!match) return;
    const watch = watchViews(kind.productId);
    product = {
      id: kind.productId,
      before: Buffer.from(text.slice(0, match.index + '"view_count":'.length)),
      after: Buffer.from(text.slice(match.index + match[0].length)),
      base: Number(match[1]),
      seen: watch.count,
      watch,
    };
  }
  const body = product ? Buffer.alloc(0) : answer.body;
  const size = product ? product.before.length + product.after.length : body.length;
  dropKept(key);
  while (kept.size && (kept.size >= KEPT_MAX || keptBytes + size > KEPT_MAX_BYTES)) dropKept(kept.keys().next().value!);
  kept.set(key, { ...answer, body, size, forVisitorsOnly: kind === "visitors", product, ...versions, storedAt: Date.now() });
  keptBytes += size;
}

/** Drops every kept answer (tests). */
export function clearKeptAnswers(): void {
  for (const key of [...kept.keys()]) dropKept(key);
}

export type FrontOptions = {
  env: Env;
  getBuild: () => ServerBuild;
  /** the headers every API answer carries (security headers, the CSP of JSON answers) */
  securityHeaders: (secure: boolean) => Array<[string, string]>;
  logLine: (line: { ip: string; method: string; url: string; status: number; length: string; ms: number; queries: number }) => void;
};

/** The address of the client, as express's `req.ip` finds it with `trust proxy` set to a hop count. */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const remote = req.socket.remoteAddress ?? "";
  if (trustProxy <= 0) return remote;
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const chain = [remote, ...forwarded];
  return chain[Math.min(trustProxy, chain.length - 1)];
}

function isSecure(req: IncomingMessage, trustProxy: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustProxy <= 0) return false;
  return String(req.headers["x-forwarded-proto"] ?? "").split(",")[0].trim() === "https";
}

function requestUrl(req: IncomingMessage, trustProxy: number): string {
  const forwardedHost = trustProxy > 0 ? String(req.headers["x-forwarded-host"] ?? "").split(",")[0].trim() : "";
  const host = forwardedHost || req.headers.host || "localhost";
  return `${isSecure(req, trustProxy) ? "https" : "http"}://${host}${req.url ?? "/"}`;
}

function fetchHeaders(incoming: IncomingMessage["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(incoming)) {
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else if (values) headers.set(key, values);
  }
  return headers;
}

function matchFastRoute(pathname: string): { route: FastRoute; params: Record<string, string> } | null {
  for (const route of FAST_ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      route.params.forEach((name, n) => (params[name] = decodeURIComponent(match[n + 1])));
    } catch {
      // broken percent-encoding: express and Remix answer it
      return null;
    }
    return { route, params };
  }
  return null;
}

/**
 * The front's request handler: answers and returns true, or returns false having sent
 * nothing (express takes the request).
 */
export function createFront(options: FrontOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { env } = options;
  const trustProxy = env.TRUST_PROXY;

  /** Logs the answer when it has gone out ('finish' always comes after end() returns). */
  const logWhenSent = (req: IncomingMessage, res: ServerResponse, started: bigint, scope: { queries: number } | null) => {
    res.once("finish", () => {
      options.logLine({
        ip: clientAddress(req, trustProxy),
        method: req.method ?? "-",
        url: req.url ?? "/",
        status: res.statusCode,
        length: String(res.getHeader("Content-Length") ?? "-"),
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        queries: scope?.queries ?? 0,
      });
    });
  };

  function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Iterable<[string, string]>, body: Buffer, cookies: string[] = []) {
    for (const [name, value] of options.securityHeaders(isSecure(req, trustProxy))) res.setHeader(name, value);
    for (const [name, value] of headers) res.setHeader(name, value);
    if (cookies.length) res.setHeader("Set-Cookie", cookies);
    if (body.length >= COMPRESS_MIN_BYTES && !res.hasHeader("Content-Encoding")) {
      res.setHeader("Vary", "Accept-Encoding");
      if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
        // level 1: most of the saving for a fraction of the CPU (answers are made per request)
        body = zlib.gzipSync(body, { level: 1 });
        res.setHeader("Content-Encoding", "gzip");
      }
    }
    res.setHeader("Content-Length", body.length);
    res.statusCode = status;
    res.end(body);
  }

  function answerFromKept(req: IncomingMessage, res: ServerResponse, entry: Kept) {
    res.setHeader("X-Answer-Cache", "hit");
    const product = entry.product;
    if (!product) return send(req, res, entry.status, entry.headers, entry.body);
    if (countsAsView(req.headers["user-agent"], incrementViewParam(req.url ?? ""))) countProductView(product.id);
    const count = product.base + (product.watch.count - product.seen);
    send(req, res, entry.status, entry.headers, Buffer.concat([product.before, Buffer.from(String(count)), product.after]));
  }

  async function answerFromLoader(req: IncomingMessage, res: ServerResponse, route: FastRoute, params: Record<string, string>, keepAs: string) {
    const module = options.getBuild().routes[route.routeId]?.module;
    if (!module?.loader) throw new Error(`fast lane: route ${route.routeId} has no loader in the build`);
    const versions = { contentVersion: contentVersion(), dataVersion: dataVersion() };
    const request = new Request(requestUrl(req, trustProxy), { method: "GET", headers: fetchHeaders(req.headers) });
    const context = { clientIp: clientAddress(req, trustProxy), cspNonce: "" };
    const result: unknown = await module.loader({ request, params, context });
    const response = result instanceof Response ? result : Response.json(result);
    const body = Buffer.from(await response.arrayBuffer());
    const productId = response.headers.get(PRODUCT_ID_HEADER);
    const shared = response.headers.get(SHARED_ANSWER_HEADER) === "visitors";
    const headers: Array<[string, string]> = [];
    response.headers.forEach((value, name) => {
      if (!INTERNAL_HEADERS.has(name)) headers.push([name, value]);
    });
    const cookies = response.headers.getSetCookie();
    if (response.status === 200 && !cookies.length) {
      if (productId && /^\d+$/.test(productId)) keep(keepAs, versions, { status: 200, headers, body }, { productId: Number(productId) });
      else if (shared && isVisitor(req)) keep(keepAs, versions, { status: 200, headers, body }, "visitors");
    }
    send(req, res, response.status, headers, body, cookies);
  }

  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);

    const started = process.hrtime.bigint();
    if (!pathname.startsWith("/api/")) {
      if (!servePageCache(req, res, () => clientAddress(req, trustProxy))) return false;
      logWhenSent(req, res, started, null);
      return true;
    }
    if (req.method !== "GET") return false;
    const match = matchFastRoute(pathname);
    if (!match) return false;
    const scope = newRequestScope("GET");
    logWhenSent(req, res, started, scope);
    const keepAs = keptKey(url);
    const entry = freshKept(keepAs, req);
    if (entry) {
      answerFromKept(req, res, entry);
      return true;
    }
    requestScope.run(scope, () => {
      answerFromLoader(req, res, match.route, match.params, keepAs).catch((error: unknown) => {
        log.error(`GET ${url} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const body = JSON.stringify({ success: false, message: "Internal server error", code: "INTERNAL_ERROR" });
        res.statusCode = 500;
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.setHeader("Content-Length", Buffer.byteLength(body));
        res.end(body);
      });
    });
    return true;
  };
}
