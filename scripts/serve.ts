/**
 * The express server around the Remix build: compression, immutable /build assets,
 * /uploads from UPLOADS_DIR, security headers, one log line per request, the client's
 * address in the load context, and a graceful stop.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Server } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Env } from "../app/lib/env.server";
import { log } from "../app/lib/log.server";
import { resolveUploadPath } from "../app/lib/uploads.server";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const SERVER_BUILD_PATH = path.join(ROOT, "build", "index.js");
const CLIENT_BUILD_DIR = path.join(ROOT, "public", "build");
const PUBLIC_DIR = path.join(ROOT, "public");

export type AppLoadContext = { clientIp: string; cspNonce: string };

/** "::ffff:1.2.3.4" (IPv4 on a dual-stack socket) reads as "1.2.3.4". */
export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

async function importBuild(): Promise<ServerBuild> {
  const stamp = fs.statSync(SERVER_BUILD_PATH).mtimeMs;
  return (await import(`${pathToFileURL(SERVER_BUILD_PATH).href}?t=${stamp}`)) as ServerBuild;
}

function contentSecurityPolicy(nonce: string, env: Env): string {
  const formTargets = ["'self'"];
  // Google sign-in posts a form that redirects to the provider; Chrome applies
  // form-action to that redirect.
  if (env.GOOGLE_CLIENT_ID) formTargets.push(new URL(env.GOOGLE_OAUTH_BASE_URL ?? "https://accounts.google.com").origin);
  const connect = ["'self'", "https:"];
  if (env.NODE_ENV === "development") connect.push("ws:");
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https: 'unsafe-inline'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formTargets.join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

function securityHeaders(env: Env) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, env));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=15552000");
    next();
  };
}

/**
 * Cross-site form posts are refused: a state-changing request that carries cookies must
 * come from this site (Sec-Fetch-Site, else Origin). Requests without cookies (API
 * clients with bearer tokens) are not affected.
 */
function sameOriginGuard(env: Env) {
  const allowed = new Set([new URL(env.PUBLIC_URL).origin]);
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method) || !req.headers.cookie) return next();
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
    if (req.path.startsWith("/api/") || req.path === "/api") {
      res.status(403).json({ success: false, message: "Cross-site request refused", code: "CSRF" });
    } else {
      res.status(403).type("text/plain").send("Cross-site request refused");
    }
  };
}

function requestLogger(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const length = res.getHeader("Content-Length") ?? "-";
    log.info(`${normalizeIp(req.ip ?? "-")} ${req.method} ${req.originalUrl} ${res.statusCode} ${length} ${ms.toFixed(1)}ms`);
  });
  next();
}

/** Files under UPLOADS_DIR: no listing, no way out of the folder, no dot-files. */
function uploadsHandler(root: string) {
  return (req: Request, res: Response) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      res.status(405).type("text/plain").send("Method not allowed");
      return;
    }
    // req.url is the still-encoded path after the /uploads mount point
    const rawPath = req.url.split("?")[0];
    const file = resolveUploadPath(root, rawPath);
    if (!file) {
      res.status(400).type("text/plain").send("Bad path");
      return;
    }
    let realRoot: string;
    let real: string;
    try {
      // symlinks must not lead out of the folder either
      realRoot = fs.realpathSync(root);
      real = fs.realpathSync(file);
      if (!real.startsWith(realRoot + path.sep) || !fs.statSync(real).isFile()) throw new Error("not a file");
    } catch {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    // `root` keeps the dot-file rule to the part below UPLOADS_DIR
    res.sendFile(path.relative(realRoot, real), {
      root: realRoot,
      maxAge: "7d",
      dotfiles: "deny",
      headers: { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox" },
    });
  };
}

export type RunningServer = { server: Server; close: () => Promise<void> };

export async function startServer(env: Env, hooks: { onClose?: () => Promise<void> } = {}): Promise<RunningServer> {
  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY > 0) app.set("trust proxy", env.TRUST_PROXY);

  app.use(requestLogger);
  app.use(securityHeaders(env));
  app.use(compression());
  app.use(sameOriginGuard(env));

  fs.mkdirSync(env.UPLOADS_DIR, { recursive: true });
  app.use("/uploads", uploadsHandler(env.UPLOADS_DIR));

  // Fingerprinted assets never change; everything else in public/ may.
  app.use("/build", express.static(CLIENT_BUILD_DIR, { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static(PUBLIC_DIR, { maxAge: "1h", index: false }));

  const isDev = env.NODE_ENV === "development";
  let build = await importBuild();
  const handler = createRequestHandler({
    build: isDev ? async () => build : build,
    mode: isDev ? "development" : "production",
    getLoadContext: (req, res): AppLoadContext => ({
      clientIp: normalizeIp(req.ip ?? req.socket.remoteAddress ?? ""),
      cspNonce: String(res.locals.cspNonce ?? ""),
    }),
  });
  app.all("*", handler);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(env.PORT, env.HOST, () => resolve(s));
    s.once("error", reject);
  });
  server.keepAliveTimeout = 65_000;

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
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // requests still running after 10 s are cut off
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    }).then(() => hooks.onClose?.());
    return closing;
  };
  return { server, close };
}
