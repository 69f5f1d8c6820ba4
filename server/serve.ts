/**
 * The express server around the Remix build: compression, immutable /build assets,
 * /uploads from UPLOADS_DIR or the bucket, security headers, one log line per request,
 * the client's address in the load context, and a graceful stop.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { pathToFileURL } from "node:url";
import http, { type Server } from "node:http";
import net from "node:net";
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { bodyLimitFor, formatBytes, isPayloadTooLarge, PayloadTooLargeError } from "../app/lib/body-limits.server";
import type { Env } from "../app/lib/env.server";
import { log } from "../app/lib/log.server";
import { newRequestScope, requestScope } from "../app/lib/request-scope.server";
import { withoutPageDataParam } from "../app/lib/scripts-after-paint.server";
import { checkFastRoutes, createFront, notePage, storeRenderedPage } from "./front";
import { appRequestUrl, COMPRESS_MIN_BYTES, fetchHeaders, normalizeIp, repairedTarget, sentWhole } from "./front-rules";
import { escapeHtml } from "~/lib/text";
import {
  IMMUTABLE_CACHE_CONTROL,
  resolveUploadPath,
  uploadKeyOf,
  uploadStorageFor,
  urlOfKey,
  type BucketStorage,
} from "../app/lib/upload-storage.server";

/** The project folder: the nearest folder up with package.json (this file also runs compiled, from build/server). */
function projectRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from, "..");
    dir = parent;
  }
  return dir;
}

export const ROOT = projectRoot(import.meta.dirname);
export const SERVER_BUILD_PATH = path.join(ROOT, "build", "index.js");
const CLIENT_BUILD_DIR = path.join(ROOT, "public", "build");
const PUBLIC_DIR = path.join(ROOT, "public");

export type AppLoadContext = { clientIp: string; cspNonce: string };

async function importBuild(): Promise<ServerBuild> {
  const stamp = fs.statSync(SERVER_BUILD_PATH).mtimeMs;
  return (await import(`${pathToFileURL(SERVER_BUILD_PATH).href}?t=${stamp}`)) as ServerBuild;
}

/**
 * Which React server renderer the build loaded: React picks its production or
 * development files from NODE_ENV when it is first imported (see getEnv()).
 */
export function reactServerBuild(): "production" | "development" | "unknown" {
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  if (loaded.some((file) => /react-dom-server[^/]*\.production/.test(file))) return "production";
  if (loaded.some((file) => /react-dom-server[^/]*\.development/.test(file))) return "development";
  return "unknown";
}

const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/**
 * A small self-contained page for the few answers the server gives before Remix runs
 * (too large, refused cross-site, a request express cannot parse). Never a stack trace.
 */
function plainPage(status: number, title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f7f7f5;color:#1c1c1e}main{max-width:32rem;margin:10vh auto;padding:1.5rem}p.code{color:#5f6368;font-weight:700;margin:0}h1{font-size:1.5rem;margin:.25rem 0 1rem}a{color:#0f766e;font-weight:600}</style></head>
<body><main><p class="code">${status}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">Back to the home page</a></p></main></body></html>`;
}

/** An error answer in the form the client expects: the JSON envelope on /api, a plain page elsewhere. */
function sendError(req: Request, res: Response, status: number, message: string, code: string, page: { title: string; text: string }) {
  if (isApiPath(req.path)) res.status(status).json({ success: false, message, code });
  else
    res
      .status(status)
      .type("html")
      .send(plainPage(status, page.title, page.text));
}

/**
 * The CSP of pages: scripts run only with this answer's nonce. Every stored page's hit
 * sends one: the text around the nonce is made once per configuration.
 */
function contentSecurityPolicy(nonce: string, env: Env): string {
  let around = policyAroundNonce.get(env);
  if (!around) {
    const policy = pagePolicy(NONCE_SLOT, env);
    const at = policy.indexOf(NONCE_SLOT);
    around = [policy.slice(0, at), policy.slice(at + NONCE_SLOT.length)];
    policyAroundNonce.set(env, around);
  }
  return around[0] + nonce + around[1];
}

const NONCE_SLOT = "\u0000nonce\u0000";
const policyAroundNonce = new WeakMap<Env, [string, string]>();

function pagePolicy(nonce: string, env: Env): string {
  const formTargets = ["'self'"];
  // Google sign-in posts a form that redirects to the provider; Chrome applies
  // form-action to that redirect.
  if (env.GOOGLE_CLIENT_ID) formTargets.push(new URL(env.GOOGLE_OAUTH_BASE_URL ?? "https://accounts.google.com").origin);
  const connect = ["'self'"];
  if (env.NODE_ENV === "development") connect.push("ws:");
  // https: for images the site does not host: Google profile pictures and, with the
  // catalogue, marketplace product images
  const images = ["'self'", "data:", "blob:", "https:"];
  // /uploads/... redirects there (a plain-http CDN or bucket in a test or on a LAN too)
  if (redirectsUploads(env)) images.push(new URL(env.UPLOADS_PUBLIC_URL!).origin);
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https: 'unsafe-inline'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formTargets.join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON answers run nothing and are never framed. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every answer carries. Pages get a CSP that allows scripts with `nonce`;
 * /api answers (nonce null) the JSON one.
 */
function securityHeaderList(env: Env, nonce: string | null, secure: boolean): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["Content-Security-Policy", nonce === null ? API_CONTENT_SECURITY_POLICY : contentSecurityPolicy(nonce, env)],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ];
  if (secure) headers.push(["Strict-Transport-Security", "max-age=15552000"]);
  return headers;
}

const NONCE_BYTES = 16;
let nonceBytes = Buffer.alloc(0);
let nonceOffset = 0;

/** A fresh CSP nonce; random bytes are drawn 256 nonces at a time (one draw costs as much as the rest of a cached answer). */
function newNonce(): string {
  if (nonceOffset + NONCE_BYTES > nonceBytes.length) {
    nonceBytes = crypto.randomBytes(NONCE_BYTES * 256);
    nonceOffset = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

function securityHeaders(env: Env) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = isApiPath(req.path) ? null : newNonce();
    res.locals.cspNonce = nonce ?? "";
    for (const [name, value] of securityHeaderList(env, nonce, req.secure)) res.setHeader(name, value);
    next();
  };
}

/**
 * Cross-site state-changing requests are refused, with or without cookies: a foreign page
 * could otherwise log a visitor into an attacker's account (login CSRF) or act with the
 * visitor's session. Browsers mark their requests with Sec-Fetch-Site and Origin; API
 * clients with bearer tokens send neither and pass.
 */
function sameOriginGuard(env: Env) {
  const allowed = new Set([new URL(env.PUBLIC_URL).origin]);
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    // RFC 8058 one-click unsubscribe: the mail provider (or a webmail page, from its own
    // origin) POSTs the link in the message. The signed token in the address is the only
    // authority there: no cookie or session is read, so a cross-site request can do
    // nothing the link's holder could not (docs/decisions/018-email-campaigns.md). Remix
    // refuses an action whose Origin is another host: the Origin is dropped here, where
    // the decision is made.
    if (req.path === "/unsubscribe") {
      delete req.headers.origin;
      return next();
    }
    const site = req.headers["sec-fetch-site"];
    const origin = req.headers.origin;
    // the host is compared, not the scheme: behind a TLS proxy without TRUST_PROXY the
    // server sees http while the browser's Origin says https
    const sameHost = (value: string) => {
      try {
        return new URL(value).host === req.get("host");
      } catch {
        return false;
      }
    };
    const crossSite =
      (typeof site === "string" && site !== "same-origin" && site !== "none") ||
      (typeof origin === "string" && !allowed.has(origin) && !sameHost(origin));
    if (!crossSite) return next();
    log.warn(`refused cross-site ${req.method} ${req.originalUrl} (origin ${origin ?? "-"}, sec-fetch-site ${site ?? "-"})`);
    sendError(req, res, 403, "Cross-site request refused", "CSRF", {
      title: "Request refused",
      text: "This form was sent from another site, so it was not accepted. Open the page on this site and try again.",
    });
  };
}

/**
 * Refuses a body larger than its limit before reading it (by Content-Length) and notes
 * the limit for the streamed count in the Remix handler (bodies without a length).
 */
function bodyLimit() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = bodyLimitFor(req.path, req.headers["content-type"]);
    res.locals.bodyLimit = limit;
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return answerTooLarge(req, res, limit);
    next();
  };
}

/** Bodies up to this size are read to the end (and dropped) before the 413 goes out. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 15_000;

/**
 * Answers 413. The rest of the body is read and dropped first (up to 64 MB or 15 s), so
 * a client still sending gets the answer instead of a broken connection; the connection
 * is then closed.
 */
function answerTooLarge(req: Request, res: Response, limit: number) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    res.setHeader("Connection", "close");
    log.warn(`refused ${req.method} ${req.originalUrl}: body over ${formatBytes(limit)}`);
    sendError(req, res, 413, `The request is too large (at most ${formatBytes(limit)})`, "PAYLOAD_TOO_LARGE", {
      title: "Request too large",
      text: `What you sent is larger than this page accepts (${formatBytes(limit)}). Go back and send a smaller file.`,
    });
  };
  const timer = setTimeout(answer, DRAIN_MAX_MS);
  if (req.complete || req.readableEnded) return answer();
  let dropped = 0;
  req.unpipe();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) answer();
  });
  req.once("end", answer);
  req.once("error", answer);
  req.resume();
}

/** A request whose address is not one (server/front-rules.ts `appRequestUrl`): answered 400. */
class BadAddress extends Error {
  readonly status = 400;
}

/**
 * The Fetch Request Remix sees, at the address the front reads too (`appRequestUrl`: built
 * as @remix-run/express builds it), with a body that fails with PayloadTooLargeError once
 * it passes the request's limit.
 */
function toRemixRequest(req: Request, res: Response, trustProxy: number): globalThis.Request {
  const url = appRequestUrl(req, trustProxy);
  if (!url) throw new BadAddress(`not an address: ${req.headers.host ?? ""} ${req.originalUrl}`);
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: fetchHeaders(req.headers),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const limit: number = res.locals.bodyLimit;
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > limit) {
          res.locals.bodyTooLarge = true;
          callback(new PayloadTooLargeError(limit));
          return;
        }
        callback(null, chunk);
      },
    });
    req.on("error", (error) => counted.destroy(error));
    init.body = createReadableStreamFromReadable(req.pipe(counted));
    init.duplex = "half";
  }
  // a page's hydration data is asked for at the page's address (decision 044): the app reads that address
  const pageAddress = req.method === "GET" || req.method === "HEAD" ? withoutPageDataParam(url.href) : null;
  if (pageAddress !== null) {
    const scope = requestScope.getStore();
    if (scope) scope.pageData = true;
  }
  return new globalThis.Request(pageAddress ?? url.href, init);
}

/**
 * Sends Remix's answer. Pages stream; JSON answers (made whole in memory anyway) go out
 * in one piece with their length (`sentWhole`), so `compression` leaves the small ones
 * uncoded, as the server's front does (server/front.ts).
 */
async function sendResponse(res: Response, response: globalThis.Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.body && sentWhole(response.headers.get("Content-Type"))) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", body.length);
    res.end(body);
  } else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/**
 * A path with broken percent-encoding (/%E0%A4%A) would make express and Remix's router
 * fail or warn on every request; its bad "%" signs are escaped instead, so the site
 * answers it like any unknown address (its own 404 page, or the JSON envelope on /api).
 */
function repairPercentEncoding(req: Request, _res: Response, next: NextFunction) {
  const repaired = repairedTarget(req.url);
  if (repaired !== req.url) {
    req.url = repaired;
    req.originalUrl = repaired;
  }
  next();
}

type RequestLine = { ip: string; method: string; url: string; status: number; length: string; ms: number; queries: number };

/** One line per request: address, method, path, status, length, time and database queries. */
function logRequestLine({ ip, method, url, status, length, ms, queries }: RequestLine) {
  log.info(`${normalizeIp(ip)} ${method} ${url} ${status} ${length} ${ms.toFixed(1)}ms ${queries}q`);
}

function requestLogger(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  const scope = newRequestScope(req.method);
  res.on("finish", () => {
    logRequestLine({
      ip: req.ip ?? "-",
      method: req.method,
      url: req.originalUrl,
      status: res.statusCode,
      length: String(res.getHeader("Content-Length") ?? "-"),
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      queries: scope.queries,
    });
  });
  requestScope.run(scope, next);
}

/**
 * Nothing runs in an uploaded file; a browser showing an image on its own styles its
 * viewer page inline, which is harmless (no script, no network) and allowed.
 */
const UPLOAD_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
};

/** The key of an /uploads/... request (req.url is the still-encoded path after the mount point), or null. */
const requestedKey = (req: Request) => uploadKeyOf(req.url.split("?")[0]);

/**
 * Files under UPLOADS_DIR: no listing, no way out of the folder, no dot-files. Anything
 * refused or missing goes on to the site's own 404 page.
 */
function folderUploadsHandler(root: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // req.url is the still-encoded path after the /uploads mount point
    const rawPath = req.url.split("?")[0];
    const file = resolveUploadPath(root, rawPath);
    if (!file) return next();
    let realRoot: string;
    let real: string;
    try {
      // symlinks must not lead out of the folder either
      realRoot = fs.realpathSync(root);
      real = fs.realpathSync(file);
      if (!real.startsWith(realRoot + path.sep) || !fs.statSync(real).isFile()) throw new Error("not a file");
    } catch {
      return next();
    }
    // `root` keeps the dot-file rule to the part below UPLOADS_DIR
    res.sendFile(path.relative(realRoot, real), { root: realRoot, maxAge: "7d", dotfiles: "deny", headers: UPLOAD_HEADERS });
  };
}

/** Whether /uploads/... redirects to UPLOADS_PUBLIC_URL: only for a bucket (a folder's CDN would fetch /uploads/... from here, in a loop). */
function redirectsUploads(env: Env): boolean {
  return Boolean(env.UPLOADS_S3 && env.UPLOADS_PUBLIC_URL);
}

/**
 * With UPLOADS_PUBLIC_URL, browsers fetch uploads from there: /uploads/<key> answers 302
 * to `${UPLOADS_PUBLIC_URL}/<key>`, without asking the bucket. 302 and an hour's caching,
 * not 301: a later move to another CDN takes effect within the hour.
 */
function redirectedUploadsHandler(publicUrl: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const key = requestedKey(req);
    if (!key) return next();
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.redirect(302, urlOfKey(publicUrl, key));
  };
}

/** The client's headers the bucket answers itself: ranges and conditional requests. */
const PASSED_TO_BUCKET = ["range", "if-range", "if-none-match", "if-modified-since"];

/** The bucket's headers relayed with each status (Cache-Control is the server's own). */
const RELAYED_FROM_BUCKET: Record<number, string[]> = {
  200: ["content-type", "content-length", "accept-ranges", "etag", "last-modified"],
  206: ["content-type", "content-length", "content-range", "accept-ranges", "etag", "last-modified"],
  304: ["etag", "last-modified"],
  416: ["content-range"],
};

function headersForBucket(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_TO_BUCKET) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return headers;
}

/**
 * Objects in the bucket, streamed through the server as express.static sends files:
 * HEAD, 304 for If-None-Match and If-Modified-Since, 206 and 416 for ranges (the bucket
 * decides, the server relays). The same path rules as the folder; a key the bucket does
 * not hold goes on to the site's own 404 page.
 */
function bucketUploadsHandler(bucket: BucketStorage) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const key = requestedKey(req);
    if (!key) return next();
    // a client that goes away stops the bucket's answer too
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    let answer: globalThis.Response;
    try {
      answer = await bucket.fetchObject(key, req.method, headersForBucket(req), gone.signal);
    } catch (error) {
      if (gone.signal.aborted) return;
      return next(error);
    }
    if (answer.status === 404) return next();
    res.status(answer.status);
    res.set(UPLOAD_HEADERS);
    for (const name of RELAYED_FROM_BUCKET[answer.status]) {
      const value = answer.headers.get(name);
      if (value) res.setHeader(name, value);
    }
    if (answer.status !== 416) res.setHeader("Cache-Control", IMMUTABLE_CACHE_CONTROL);
    if (!answer.body || req.method === "HEAD" || (answer.status !== 200 && answer.status !== 206)) {
      await answer.body?.cancel().catch(() => {});
      res.end();
      return;
    }
    // a client gone mid-way, or a bucket that broke off: the connection ends, nothing else to tell
    await pipeline(Readable.fromWeb(answer.body as NodeReadableStream), res).catch(() => res.destroy());
  };
}

/** /uploads/... from the folder, the bucket, or the bucket's public address (redirects). */
function uploadsHandler(env: Env) {
  const storage = uploadStorageFor(env);
  if (storage.kind === "folder") {
    fs.mkdirSync(storage.root, { recursive: true });
    return folderUploadsHandler(storage.root);
  }
  if (redirectsUploads(env)) {
    log.info(`uploads in ${storage.description}; /uploads/... redirects to ${env.UPLOADS_PUBLIC_URL}`);
    return redirectedUploadsHandler(env.UPLOADS_PUBLIC_URL!);
  }
  log.info(`uploads in ${storage.description}, served through /uploads/...`);
  return bucketUploadsHandler(storage);
}

/**
 * Without TRUST_PROXY the client's address is the connection's: behind a reverse proxy on
 * the same machine every visitor is 127.0.0.1, which no per-address limit counts and the
 * sign-up captcha never meets (app/services/rate-limit.server.ts). Said at the start, and
 * once more, as a warning, at the first request a proxy forwarded (docs/self-hosting.md).
 * TRUST_PROXY=0 says there is no proxy: then neither is said.
 */
export const TRUST_PROXY_UNSET =
  "TRUST_PROXY is unset: a client's address is its connection's, and X-Forwarded-For, Forwarded and X-Forwarded-Proto are ignored. " +
  "Behind a reverse proxy every visitor is then the proxy (127.0.0.1 on this machine: no per-address limits, no sign-up captcha): " +
  "set TRUST_PROXY=1 (the number of proxies in front), or TRUST_PROXY=0 to say there is none (docs/self-hosting.md)";

/** The headers a reverse proxy adds to what it forwards. */
const FORWARDED_HEADERS = ["x-forwarded-for", "forwarded", "x-forwarded-proto"] as const;

/**
 * Sees every request (the front answers some before express runs) and warns once, at the
 * first that carries a proxy's headers, that they are ignored; after that it only checks
 * one flag.
 */
function forwardedWithoutTrust(): (req: http.IncomingMessage) => void {
  let warned = false;
  return (req) => {
    if (warned) return;
    const names = FORWARDED_HEADERS.filter((name) => req.headers[name] !== undefined);
    if (names.length === 0) return;
    warned = true;
    log.warn(
      `a request from ${normalizeIp(req.socket.remoteAddress ?? "-")} carries ${names.join(", ")} while TRUST_PROXY is unset: ` +
        "those headers are ignored, so behind this proxy every visitor has the proxy's address (no per-address limits, no sign-up captcha). " +
        "Set TRUST_PROXY=1 (the number of proxies in front), or TRUST_PROXY=0 if clients reach the server directly (said once)",
    );
  };
}

/**
 * How long a connection left idle and open at a stop is kept for a request already on its
 * way (sent by a client that had not yet heard of the stop); then it is closed. Counted
 * from the stop, and again from the end of each answer that was already on its way at the
 * stop (its headers had gone, so it could not say Connection: close): the client of such
 * an answer sends its next request on the same connection as soon as it has it.
 */
const IDLE_GRACE_MS = 500;

/** What app/entry.server.tsx offers the server besides rendering. */
type AppEntry = { startBackgroundWork?: () => Promise<void>; stopBackgroundWork?: () => Promise<void> };

export type RunningServer = {
  server: Server;
  close: () => Promise<void>;
  /** the Remix build's background work (job runner, mail queue): started once listening, stopped at the end */
  background: { start: () => Promise<void>; stop: () => Promise<void> };
};

export async function startServer(env: Env, hooks: { onClose?: () => Promise<void> } = {}): Promise<RunningServer> {
  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY > 0) app.set("trust proxy", env.TRUST_PROXY);
  else if (!env.TRUST_PROXY_SET) log.info(TRUST_PROXY_UNSET);

  app.use(requestLogger);
  app.use(repairPercentEncoding);
  app.use(securityHeaders(env));
  // small bodies (most JSON answers) cost more to compress than they save
  app.use(compression({ threshold: COMPRESS_MIN_BYTES }));
  app.use(sameOriginGuard(env));
  app.use(bodyLimit());

  app.use("/uploads", uploadsHandler(env));

  // Fingerprinted assets never change; everything else in public/ may.
  app.use("/build", express.static(CLIENT_BUILD_DIR, { immutable: true, maxAge: "1y", index: false }));
  // public/ never answers /api paths (no directory redirects there either)
  const publicFiles = express.static(PUBLIC_DIR, { maxAge: "1h", index: false, redirect: false });
  app.use((req: Request, res: Response, next: NextFunction) => (isApiPath(req.path) ? next() : publicFiles(req, res, next)));

  const isDev = env.NODE_ENV === "development";
  let build = await importBuild();
  const handleRequest = createRequestHandler(isDev ? async () => build : build, isDev ? "development" : "production");
  // the work of the requests being answered: a stop waits for it before the database
  // closes, also when the client has gone mid-request (its connection is closed, but its
  // loader still runs)
  const working = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    working.add(work);
    const done = () => working.delete(work);
    work.then(done, done);
  };
  const answerWithRemix = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const context: AppLoadContext = {
        clientIp: normalizeIp(req.ip ?? req.socket.remoteAddress ?? ""),
        cspNonce: String(res.locals.cspNonce ?? ""),
      };
      const note = res.locals.reference ? null : notePage(req, env.TRUST_PROXY);
      const response = await storeRenderedPage(
        note,
        context.cspNonce,
        await handleRequest(toRemixRequest(req, res, env.TRUST_PROXY), context),
      );
      if (res.locals.bodyTooLarge) {
        await response.body?.cancel().catch(() => {});
        return answerTooLarge(req, res, res.locals.bodyLimit);
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
  // app.use, not app.all("*"): express would decode the path for a "*" parameter and
  // answer a malformed one (/%E0%A4%A) itself; Remix answers it with the site's page
  app.use((req: Request, res: Response, next: NextFunction) => track(answerWithRemix(req, res, next)));

  // the last word on anything that went wrong outside Remix: no stack traces, ever
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isPayloadTooLarge(error)) return answerTooLarge(req, res, res.locals.bodyLimit);
    const raw = Number((error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode);
    const status = raw >= 400 && raw < 600 ? raw : 500;
    if (status >= 500) log.error(`${req.method} ${req.originalUrl} failed: ${(error as Error).stack ?? error}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(req, res, status, status >= 500 ? "Internal server error" : "Bad request", status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST", {
      title: status >= 500 ? "Something went wrong" : "Bad request",
      text: status >= 500 ? "An unexpected error occurred. Please try again in a moment." : "The address or the request could not be read.",
    });
  });

  checkFastRoutes(build);
  // the front answers stored answers and the hot catalogue reads itself (server/front.ts)
  const front = createFront({
    env,
    getBuild: () => build,
    securityHeaders: (nonce, secure) => securityHeaderList(env, nonce, secure),
    logLine: logRequestLine,
    track,
  });
  const noteForwarded = env.TRUST_PROXY_SET ? null : forwardedWithoutTrust();
  let stopping = false;
  const server = http.createServer((req, res) => {
    noteForwarded?.(req);
    // during a stop every answer closes its connection after it (Connection: close): the
    // client sends its next request elsewhere instead of on a connection about to go
    if (stopping) res.shouldKeepAlive = false;
    if (!front(req, res)) app(req, res);
  });
  // the open connections (per connection, not per request: a keep-alive connection serves
  // thousands), so that a stop can make the answer each is making its last (see close())
  const connections = new Set<net.Socket>();
  server.on("connection", (socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 65_000;
  // what the app renders without the front (never stored): the differential test's reference
  let reference: Server | null = null;
  if (env.REFERENCE_PORT) {
    reference = http.createServer((req, res) => {
      (res as unknown as Response).locals = { reference: true };
      app(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      reference!.once("error", reject);
      reference!.listen(env.REFERENCE_PORT, env.HOST, () => resolve());
    });
    reference.keepAliveTimeout = 65_000;
  }

  if (isDev) {
    const { broadcastDevReady } = await import("@remix-run/node");
    await broadcastDevReady(build);
    fs.watch(path.dirname(SERVER_BUILD_PATH), async (_event, name) => {
      if (name !== "version.txt" && name !== "index.js") return;
      try {
        build = await importBuild();
        await broadcastDevReady(build);
      } catch (error) {
        log.warn(`dev: reloading the build failed: ${(error as Error).message}`);
      }
    });
  }

  let closing: Promise<void> | undefined;
  /**
   * A graceful stop that resets no request it has received (decision 036):
   * - no new connections (the listening socket closes; http.Server.close() would also
   *   close the idle keep-alive connections at once, and a request already on its way on
   *   one of them would meet a reset);
   * - every answer from now on, and every one in progress whose headers have not gone,
   *   closes its connection after it (Connection: close);
   * - connections idle at the stop get a moment (IDLE_GRACE_MS) for a request already sent
   *   to arrive, which is answered the same way, and so do those whose answer was already
   *   going out at the stop, from its end; then the idle ones are closed;
   * - what still runs after 10 s is cut off.
   */
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      stopping = true;
      reference?.close();
      reference?.closeAllConnections();
      // the last moment a connection became idle and stayed open: the stop, or the end of
      // an answer whose headers had gone before it
      let idleFrom = performance.now();
      // the answer a connection is making (node's own field: the response its socket is writing)
      for (const socket of connections) {
        const res = (socket as net.Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
        if (!res) continue;
        if (!res.headersSent) res.shouldKeepAlive = false;
        else if (res.shouldKeepAlive) res.once("finish", () => (idleFrom = performance.now()));
      }
      net.Server.prototype.close.call(server, () => {
        clearInterval(sweep);
        resolve();
      });
      // idle connections are closed once every one has had the grace since it became idle;
      // a closing while a request is still on its way to an idle connection would reset it
      const sweep = setInterval(() => {
        if (performance.now() - idleFrom >= IDLE_GRACE_MS) server.closeIdleConnections();
      }, IDLE_GRACE_MS / 5);
      // requests still running after 10 s are cut off
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    })
      .then(() => Promise.race([Promise.allSettled([...working]), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]))
      .then(() => hooks.onClose?.());
    return closing;
  };
  const entry = () => build.entry.module as unknown as AppEntry;
  const background = {
    start: async () => {
      if (!entry().startBackgroundWork) throw new Error("the server build has no startBackgroundWork(): rebuild it");
      await entry().startBackgroundWork!();
    },
    stop: async () => {
      await entry().stopBackgroundWork?.();
    },
  };
  return { server, close, background };
}
