/**
 * The server's front (docs/stored-pages.md, decision 013): the answers asked for most often
 * are given here, on the bare node:http request, before express and Remix's router run
 * (express alone, as the first middleware, gives 40 % of the front's pages per second:
 * decision 041):
 * - stored answers (server/stored-answers.ts) to the requests they were stored for;
 * - the public catalogue reads of the API (`FAST_ROUTES`): their route modules' own
 *   loaders, taken from the Remix build and called directly, so there is one
 *   implementation of each; their answers are stored when they say they may be.
 * Everything else goes on to express. The answers carry the express path's security
 * headers, coding and Vary, and are logged in its line format.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { hasRouteLoader, runRouteLoader, type ServerBuild } from "./remix-build";
import type { Env } from "../app/lib/env.server";
import { log } from "../app/lib/log.server";
import { asksForPageData, newRequestScope, requestScope } from "../app/lib/request-scope.server";
import { sharingOf } from "../app/lib/shared-answers.server";
import type { Hit } from "../app/services/hit-counters.server";
import {
  answerKey,
  appRequestUrl,
  clientAddress,
  COMPRESS_MIN_BYTES,
  fetchHeaders,
  isVisitor,
  negotiateEncoding,
  pageKey,
  requestProtocol,
  varyWithEncoding,
  type Encoding,
} from "./front-rules";
import {
  bodyOf,
  countHit,
  encode,
  internalOf,
  storeAnswer,
  storedAnswer,
  versionsNow,
  type StoredAnswer,
  type Versions,
} from "./stored-answers";

type FastRoute = { pattern: RegExp; routeId: string; path: string; params: string[] };
type FastMatch = { route: FastRoute; params: Record<string, string> };

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
        `the front: route ${route.routeId} (${route.path}) is not in the build as expected (found ${check.found ?? "nothing"})`,
      );
    }
  }
}

function matchFastRoute(pathname: string): FastMatch | null {
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

// ------------------------------------------------------------------ pages rendered by express

/** What the express path needs to store the page it renders for a request. */
export type PageNote = { key: string; versions: Versions; visitor: boolean };

/**
 * Notes a request whose page may be stored, with the versions read before it renders.
 * Only GET: a HEAD answer has no body to store (a HEAD is given a GET's copy).
 */
export function notePage(req: IncomingMessage, trustProxy: number): PageNote | null {
  if (req.method !== "GET") return null;
  const page = pageKey(req, trustProxy);
  if (!page) return null;
  const { pathname } = page.url;
  return { key: page.key, versions: versionsNow(pathname === "/blog" || pathname.startsWith("/blog/")), visitor: isVisitor(req.headers) };
}

/**
 * Called by the express path with every answer Remix makes (`note` null when the request
 * may not be given a stored page): takes the internal headers out, and stores a page that
 * may be stored. An answer that read one caller's own state says so (`private, no-store`,
 * sharingOf()), stored or not, for every cache after this one. Answers the Response to
 * send (the body may have been read). `nonce` is the CSP nonce the page was rendered with.
 */
export async function storeRenderedPage(note: PageNote | null, nonce: string, response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  const hits = internalOf(headers);
  const rule = sharingOf(headers);
  // a page, or the data a page hydrates with (its own address: decision 044)
  const pageData = asksForPageData();
  const type = headers.get("Content-Type") ?? "";
  if (!note || !rule || response.status !== 200 || !(pageData ? type.startsWith("application/json") : type.startsWith("text/html")))
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const text = await response.text();
  // (the page's data keeps the page's headers, its CSP with the nonce included, as the express path sends them)
  // (a page's data counts nothing when given again: its page is counted)
  const counted = pageData ? [] : hits;
  storeAnswer(
    note.key,
    note.versions,
    { status: 200, headers, body: Buffer.from(text), nonce: nonce || null, hits: counted },
    rule,
    note.visitor,
  );
  return new Response(text, { status: 200, statusText: response.statusText, headers });
}

// ------------------------------------------------------------------ the front

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

type Head = {
  status: number;
  headers: Iterable<[string, string]>;
  /** a page's CSP nonce; null: the JSON answers' policy */
  nonce: string | null;
  length: number;
  encoding: Encoding;
  cookies?: string[];
};

/**
 * The front's request handler: answers and returns true, or returns false having sent
 * nothing (express takes the request).
 */
export function createFront(options: FrontOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const trustProxy = options.env.TRUST_PROXY;

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

  /** The headers of an answer as the express path sends them: its security headers, Vary on Accept-Encoding, the coding. */
  function writeHead(req: IncomingMessage, res: ServerResponse, head: Head) {
    for (const [name, value] of options.securityHeaders(head.nonce, requestProtocol(req, trustProxy) === "https"))
      res.setHeader(name, value);
    let vary: string | undefined;
    for (const [name, value] of head.headers) {
      if (name.toLowerCase() === "vary") vary = value;
      else res.setHeader(name, value);
    }
    if (head.cookies?.length) res.setHeader("Set-Cookie", head.cookies);
    res.setHeader("Vary", varyWithEncoding(vary));
    if (head.encoding !== "identity") res.setHeader("Content-Encoding", head.encoding);
    res.setHeader("Content-Length", head.length);
    res.statusCode = head.status;
  }

  /** Gives a stored answer, counting the hit first (its counts include it); a HEAD gets no body. */
  function giveStored(req: IncomingMessage, res: ServerResponse, entry: StoredAnswer, url: URL) {
    const hit: Hit = {
      userAgent: req.headers["user-agent"] ?? null,
      incrementView: url.searchParams.get("incrementView"),
      clientIp: () => clientAddress(req, trustProxy),
    };
    const waits = countHit(entry, hit);
    const head = req.method === "HEAD";
    // compression leaves HEAD answers uncoded
    const { body, encoding } = bodyOf(entry, head ? "identity" : negotiateEncoding(req.headers["accept-encoding"]));
    res.setHeader(entry.nonce === null ? "X-Answer-Cache" : "X-Page-Cache", "hit");
    writeHead(req, res, { status: entry.status, headers: entry.headers, nonce: entry.nonce, length: body.length, encoding });
    if (!waits.length) {
      res.end(head ? undefined : body);
      return;
    }
    const work = Promise.all(waits)
      .catch(() => undefined)
      .then(() => res.end(head ? undefined : body));
    options.track?.(work);
  }

  async function answerFromLoader(req: IncomingMessage, res: ServerResponse, url: URL, match: FastMatch) {
    const versions = versionsNow(false);
    const request = new Request(url.href, { method: "GET", headers: fetchHeaders(req.headers) });
    const context = { clientIp: clientAddress(req, trustProxy), cspNonce: "" };
    const response = await runRouteLoader(options.getBuild(), match.route.routeId, { request, params: match.params, context });
    const body = Buffer.from(await response.arrayBuffer());
    const headers = new Headers(response.headers);
    const hits = internalOf(headers);
    // an answer that read one caller's own state says so, stored or not
    const rule = sharingOf(headers);
    storeAnswer(answerKey(url), versions, { status: response.status, headers, body, nonce: null, hits }, rule, isVisitor(req.headers));
    const cookies = headers.getSetCookie();
    headers.delete("Set-Cookie");
    const encoding = body.length >= COMPRESS_MIN_BYTES ? negotiateEncoding(req.headers["accept-encoding"]) : "identity";
    const sent = encode(body, encoding);
    writeHead(req, res, { status: response.status, headers, nonce: null, length: sent.length, encoding, cookies });
    res.end(sent);
  }

  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const raw = req.url ?? "/";
    const started = process.hrtime.bigint();
    if (!raw.startsWith("/api/")) {
      const page = pageKey(req, trustProxy);
      const entry = page && storedAnswer(page.key, isVisitor(req.headers));
      if (!page || !entry) return false;
      logWhenSent(req, res, started, null);
      giveStored(req, res, entry, page.url);
      return true;
    }
    // the address the app would read: its path picks the route, its query is the loader's
    const url = appRequestUrl(req, trustProxy);
    if (!url) return false;
    const match = matchFastRoute(url.pathname);
    if (!match) return false;
    const entry = storedAnswer(answerKey(url), isVisitor(req.headers));
    if (entry) {
      logWhenSent(req, res, started, null);
      giveStored(req, res, entry, url);
      return true;
    }
    // a HEAD the store cannot answer: express and Remix answer it
    if (req.method !== "GET") return false;
    const scope = newRequestScope("GET");
    logWhenSent(req, res, started, scope);
    requestScope.run(scope, () => {
      const work = answerFromLoader(req, res, url, match);
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
