/**
 * The server's front (docs/decisions/013-fast-lane.md): the few answers that are asked
 * for most often are given here, on the bare node:http request, before express and
 * Remix's router run (together about 2 ms of CPU per request, more than the work itself):
 * - stored storefront pages for visitors without a session (server/page-cache.ts);
 * - the public catalogue reads of the API (product, product by item id, search, lists,
 *   categories, exchange rates): their route modules' own loaders, taken from the Remix
 *   build and called directly, so there is one implementation of each.
 * Everything else goes on to express. The answers carry the same security headers and
 * are logged in the same line format as express's.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { hasRouteLoader, runRouteLoader, type ServerBuild } from "./remix-build";
import type { Env } from "../app/lib/env.server";
import { log } from "../app/lib/log.server";
import { newRequestScope, requestScope } from "../app/lib/request-scope.server";
import { contentVersion, PRODUCT_ID_HEADER, viewsVersion, type ViewDependency } from "../app/lib/content-version.server";
import { countsAsView } from "../app/lib/crawlers";
import { dataVersion } from "../app/lib/db.server";
import { countProductView, unwatchViews, viewsWrittenAtOnce, watchViews, type ViewWatch } from "../app/services/view-counts.server";
import { sharingOf, type KeepRule } from "../app/lib/shared-answers.server";
import { appRequestUrl, isVisitor, requestProtocol, negotiateEncoding, varyWithEncoding, type Encoding } from "./front-rules";
import { KeptMap, type Used } from "./kept-map";
import { servePageCache } from "./page-cache";

/** Headers between the loaders and the front, never sent. */
const INTERNAL_HEADERS = new Set(["set-cookie", PRODUCT_ID_HEADER.toLowerCase()]);

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
  {
    pattern: /^\/api\/products\/platform\/([^/]+)$/,
    routeId: "routes/api.products.platform.$itemId",
    path: "api/products/platform/:itemId",
    params: ["itemId"],
  },
  { pattern: /^\/api\/products\/(\d+)$/, routeId: "routes/api.products.$id", path: "api/products/:id", params: ["id"] },
  { pattern: /^\/api\/products$/, routeId: "routes/api.products._index", path: "api/products", params: [] },
  { pattern: /^\/api\/categories$/, routeId: "routes/api.categories", path: "api/categories", params: [] },
  { pattern: /^\/api\/exchange-rates$/, routeId: "routes/api.exchange-rates", path: "api/exchange-rates", params: [] },
];

/** Throws when a route of the table is missing from the build or has moved (checked at start). */
export function checkFastRoutes(build: ServerBuild): void {
  for (const route of FAST_ROUTES) {
    const check = hasRouteLoader(build, route.routeId, route.path);
    if (!check.ok) {
      throw new Error(
        `fast lane: route ${route.routeId} (${route.path}) is not in the build as expected (found ${check.found ?? "nothing"})`,
      );
    }
  }
}

// ------------------------------------------------------------------ kept answers
//
// Loader answers kept in memory and given again without running the loader
// (docs/decisions/013-fast-lane.md, 022-front-rules.md, 035-kept-only-when-the-answer-says-so.md):
// only an answer that says it may be (`Cache-Control: public, s-maxage=N`), and read
// nothing of one caller's own; given to everyone, or (`Vary: Cookie, Authorization`) only
// to callers without a session or token. A product's answer names its product
// (X-Product-Id): a hit counts its view.
// Every product in a kept answer shows its view count, which moves with every view: the
// answer is kept as the text around those counts, and each answer puts in the count each
// product had when kept plus the views counted since (watchViews() sees every view this
// process counts, by any path). Kept answers are dropped like stored pages: when the
// content version, SQLite's data_version or (for lists ordered by views) the views move,
// and after the answer's s-maxage (at most a minute). The key is the address the app reads
// (appRequestUrl) without `incrementView` (it changes the counting, not the answer).

const KEPT_MAX = 5000;
/** the bodies kept, in bytes: the memory they may take */
const KEPT_MAX_BYTES = 8 * 1024 * 1024;
let keptBytes = 0;
const VIEW_COUNT = /"view_count":(\d+)/g;

type CountSite = { id: number; base: number; seen: number; watch: ViewWatch };

type Kept = Used & {
  /** a product's own answer (its view is counted when given), else null */
  productId: number | null;
  status: number;
  headers: Array<[string, string]>;
  /** the body's text around its view counts (one more piece than counts) */
  pieces: Buffer[];
  counts: CountSite[];
  /** the last body given, by the counts it holds, and its codings made so far */
  last: { counts: string; bodies: Partial<Record<Encoding, Buffer>> } | null;
  /** bytes held */
  size: number;
  forVisitorsOnly: boolean;
  contentVersion: number;
  dataVersion: number;
  views: Array<[ViewDependency, number]>;
  storedAt: number;
  ttlMs: number;
};

const kept = new KeptMap<Kept>();

function dropKept(key: string) {
  const entry = kept.delete(key);
  if (!entry) return;
  keptBytes -= entry.size;
  for (const site of entry.counts) unwatchViews(site.id);
}

/**
 * The key of an answer: the address the app reads without its `incrementView` parameters
 * (each pair of the query is dropped when the app reads its name as incrementView; the
 * others stay as sent, so the key is never an address the app would read otherwise).
 */
function keptKey(url: URL): string {
  let key = keptKeys.get(url);
  if (key === undefined) keptKeys.set(url, (key = keyOf(url)));
  return key;
}

/** The keys of the addresses appRequestUrl() keeps (the same URL object for the same request line). */
const keptKeys = new WeakMap<URL, string>();

function keyOf(url: URL): string {
  if (!url.searchParams.has("incrementView")) return url.href;
  const rest = url.search
    .slice(1)
    .split("&")
    .filter((pair) => !new URLSearchParams(pair).has("incrementView"))
    .join("&");
  return `${url.origin}${url.pathname}${rest ? `?${rest}` : ""}`;
}

function freshKept(key: string, req: IncomingMessage): Kept | null {
  const entry = kept.peek(key);
  if (!entry) return null;
  if (
    entry.contentVersion !== contentVersion() ||
    entry.dataVersion !== dataVersion() ||
    !entry.views.every(([kind, version]) => viewsVersion(kind) === version) ||
    Date.now() - entry.storedAt >= entry.ttlMs
  ) {
    dropKept(key);
    return null;
  }
  if (entry.forVisitorsOnly && !isVisitor(req.headers)) return null;
  kept.touch(entry);
  return entry;
}

/**
 * The products of a JSON answer that show a view count, in the order their counts appear
 * in its text (JSON.stringify writes keys in order, depth first), or null when the text
 * and the data do not agree (the answer is then not kept).
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

type Versions = { contentVersion: number; dataVersion: number; productViews: number };

function keep(
  key: string,
  versions: Versions,
  answer: { status: number; headers: Array<[string, string]>; body: Buffer },
  rule: KeepRule,
  productId: number | null,
) {
  const text = answer.body.toString("utf8");
  const sites = viewCountSites(text);
  if (!sites) return;
  // on PostgreSQL the counts move with every instance's views, which this one does not
  // watch: an answer showing counts is made anew each time
  if (sites.matches.length && viewsWrittenAtOnce()) return;
  const views: Kept["views"] = [];
  for (const dependency of requestScope.getStore()?.dependsOn ?? []) views.push([dependency, viewsVersion(dependency)]);
  const pieces: Buffer[] = [];
  const counts: CountSite[] = [];
  let at = 0;
  sites.matches.forEach((match, n) => {
    const start = match.index + '"view_count":'.length;
    pieces.push(Buffer.from(text.slice(at, start)));
    at = start + match[1].length;
    const watch = watchViews(sites.products[n].id);
    counts.push({ id: sites.products[n].id, base: sites.products[n].count, seen: watch.count, watch });
  });
  pieces.push(Buffer.from(text.slice(at)));
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  dropKept(key);
  while (kept.size && (kept.size >= KEPT_MAX || keptBytes + size > KEPT_MAX_BYTES)) dropKept(kept.oldest()!);
  kept.set(key, {
    used: 0,
    productId,
    status: answer.status,
    headers: answer.headers,
    pieces,
    counts,
    last: null,
    size,
    forVisitorsOnly: rule.visitorsOnly,
    contentVersion: versions.contentVersion,
    dataVersion: versions.dataVersion,
    views,
    storedAt: Date.now(),
    ttlMs: rule.ttlMs,
  });
  keptBytes += size;
}

/** Drops every kept answer (tests). */
export function clearKeptAnswers(): void {
  for (const key of [...kept.keys()]) dropKept(key);
}

export type FrontOptions = {
  env: Env;
  getBuild: () => ServerBuild;
  /**
   * The security headers the express path sends: with a page's CSP nonce, or (null) the
   * ones of every API answer (the CSP of JSON answers).
   */
  securityHeaders: (nonce: string | null, secure: boolean) => Array<[string, string]>;
  logLine: (line: { ip: string; method: string; url: string; status: number; length: string; ms: number; queries: number }) => void;
  /** Notes the work of a request being answered (a stop waits for it before the database closes). */
  track?: (work: Promise<unknown>) => void;
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

const isSecure = (req: IncomingMessage, trustProxy: number) => requestProtocol(req, trustProxy) === "https";

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
 * A body in the content coding the express path's `compression` would give it: JSON
 * answers of at least COMPRESS_MIN_BYTES, in the coding negotiated from Accept-Encoding.
 */
function encode(body: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    // compression's own settings: br at quality 4, gzip and deflate at zlib's default level
    case "br":
      return zlib.brotliCompressSync(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
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

  /**
   * Sends a JSON answer as the express path would: its security headers, Vary on
   * Accept-Encoding, and the negotiated coding from COMPRESS_MIN_BYTES up. `coded` gives a
   * coding already made (kept answers keep theirs).
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Iterable<[string, string]>,
    body: Buffer,
    cookies: string[] = [],
    coded?: (encoding: Encoding) => Buffer,
  ) {
    for (const [name, value] of options.securityHeaders(null, isSecure(req, trustProxy))) res.setHeader(name, value);
    let vary: string | undefined;
    for (const [name, value] of headers) {
      if (name.toLowerCase() === "vary") vary = value;
      else res.setHeader(name, value);
    }
    if (cookies.length) res.setHeader("Set-Cookie", cookies);
    res.setHeader("Vary", varyWithEncoding(vary));
    const encoding = body.length >= COMPRESS_MIN_BYTES ? negotiateEncoding(req.headers["accept-encoding"]) : "identity";
    if (encoding !== "identity") {
      body = coded ? coded(encoding) : encode(body, encoding);
      res.setHeader("Content-Encoding", encoding);
    }
    res.setHeader("Content-Length", body.length);
    res.statusCode = status;
    res.end(body);
  }

  function answerFromKept(req: IncomingMessage, res: ServerResponse, entry: Kept, url: URL) {
    res.setHeader("X-Answer-Cache", "hit");
    // a product's own answer counts its view (a list counts none)
    if (entry.productId !== null && countsAsView(req.headers["user-agent"], url.searchParams.get("incrementView")))
      countProductView(entry.productId);
    const counts = entry.counts.map((site) => site.base + (site.watch.count - site.seen));
    const signature = counts.join(",");
    if (entry.last?.counts === signature) {
      const bodies = entry.last.bodies;
      return send(
        req,
        res,
        entry.status,
        entry.headers,
        bodies.identity!,
        [],
        (encoding) => (bodies[encoding] ??= encode(bodies.identity!, encoding)),
      );
    }
    const parts: Buffer[] = [entry.pieces[0]];
    counts.forEach((count, n) => parts.push(Buffer.from(String(count)), entry.pieces[n + 1]));
    const identity = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    // a product's own answer changes with every view it counts: not worth keeping; a list's
    // counts stay put between views, and so do its codings
    if (entry.productId !== null) return send(req, res, entry.status, entry.headers, identity);
    const bodies: Partial<Record<Encoding, Buffer>> = { identity };
    entry.last = { counts: signature, bodies };
    send(req, res, entry.status, entry.headers, identity, [], (encoding) => (bodies[encoding] ??= encode(identity, encoding)));
  }

  async function answerFromLoader(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    route: FastRoute,
    params: Record<string, string>,
    keepAs: string,
  ) {
    const versions: Versions = {
      contentVersion: contentVersion(),
      dataVersion: dataVersion(),
      productViews: viewsVersion("product-views"),
    };
    const request = new Request(url.href, { method: "GET", headers: fetchHeaders(req.headers) });
    const context = { clientIp: clientAddress(req, trustProxy), cspNonce: "" };
    const response = await runRouteLoader(options.getBuild(), route.routeId, { request, params, context });
    const body = Buffer.from(await response.arrayBuffer());
    const named = response.headers.get(PRODUCT_ID_HEADER);
    const productId = named && /^\d+$/.test(named) ? Number(named) : null;
    const answerHeaders = new Headers(response.headers);
    // an answer that read one caller's own state says so, kept or not
    const rule = sharingOf(answerHeaders);
    const headers: Array<[string, string]> = [];
    answerHeaders.forEach((value, name) => {
      if (!INTERNAL_HEADERS.has(name)) headers.push([name, value]);
    });
    const cookies = response.headers.getSetCookie();
    // kept only when no view was counted while the loader ran but its own: a count read
    // before another request's view and watched only after it would stay one short
    const ownViews = productId !== null && countsAsView(req.headers["user-agent"], url.searchParams.get("incrementView")) ? 1 : 0;
    const undisturbed = viewsVersion("product-views") - versions.productViews === ownViews;
    // an answer for visitors only is kept from a visitor's request (what it read of the caller is nobody's)
    if (response.status === 200 && !cookies.length && undisturbed && rule && (!rule.visitorsOnly || isVisitor(req.headers)))
      keep(keepAs, versions, { status: 200, headers, body }, rule, productId);
    send(req, res, response.status, headers, body, cookies);
  }

  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const raw = req.url ?? "/";
    const started = process.hrtime.bigint();
    if (!raw.startsWith("/api/")) {
      const page = {
        trustProxy,
        secure: isSecure(req, trustProxy),
        clientIp: () => clientAddress(req, trustProxy),
        securityHeaders: options.securityHeaders,
        track: options.track,
      };
      if (!servePageCache(req, res, page)) return false;
      logWhenSent(req, res, started, null);
      return true;
    }
    if (req.method !== "GET") return false;
    // the address the app would read: its path picks the route, its query is the loader's
    const url = appRequestUrl(req, trustProxy);
    if (!url) return false;
    const match = matchFastRoute(url.pathname);
    if (!match) return false;
    const scope = newRequestScope("GET");
    logWhenSent(req, res, started, scope);
    const keepAs = keptKey(url);
    const entry = freshKept(keepAs, req);
    if (entry) {
      answerFromKept(req, res, entry, url);
      return true;
    }
    requestScope.run(scope, () => {
      const work = answerFromLoader(req, res, url, match.route, match.params, keepAs);
      options.track?.(work);
      work.catch((error: unknown) => {
        log.error(`GET ${raw} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
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
