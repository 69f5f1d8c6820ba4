/**
 * What the server's front reads from a request before it answers from memory
 * (docs/stored-pages.md, docs/decisions/022-front-rules.md). Each rule reads the request
 * exactly as the app does, with the app's own functions or express's own packages, so
 * that a stored answer is only ever given to a request the app would answer the same way:
 * - the address the app reads, and the key of a stored answer;
 * - who may be given a stored answer (a visitor: no session, no flash message, no token);
 * - the visitor's choices a page depends on (display currency, preferred agent, language);
 * - the client's address (proxy-addr, as express's `req.ip`), the coding of the answer
 *   (Negotiator, as `compression` calls it) and its Vary (the `vary` package).
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import Negotiator from "negotiator";
import proxyAddress from "proxy-addr";
import vary from "vary";
import { preferredAgentOfCookieHeader } from "../app/lib/agent-preference.server";
import { currencyOfCookieHeader } from "../app/lib/currency.server";
import { chooseLanguage } from "../app/i18n/languages";

/**
 * True when the Cookie header may carry a session (`sid`) or a flash message (`toast`):
 * the answer is then that person's own. Deliberately wider than the cookie parser (any
 * spacing, any separator before the name): a false "yes" only costs a render.
 */
export function mayCarrySession(cookie: string | undefined): boolean {
  return cookie !== undefined && /(?:^|[;,\s])(?:sid|toast)\s*=/.test(cookie);
}

/** A caller the front may give an answer stored for visitors: no session cookie, no credentials. */
export function isVisitor(headers: { cookie?: string; authorization?: string }): boolean {
  return !headers.authorization && !mayCarrySession(headers.cookie);
}

/**
 * The part of a stored page's key that comes from the visitor's choices: the currency, the
 * agent and the language the app will read from these headers (not their raw text:
 * `currency=krw`, ` currency=KRW ` and `currency=KRW` are one page; `currency=EURx` is the
 * default currency's page; every Accept-Language that picks Chinese is one page).
 */
export function choicesKey(pathname: string, cookie: string | undefined, acceptLanguage: string | undefined): string {
  return `${currencyOfCookieHeader(cookie)}|${preferredAgentOfCookieHeader(cookie) ?? ""}|${chooseLanguage(pathname, cookie, acceptLanguage)}`;
}

export type Encoding = "br" | "gzip" | "deflate" | "identity";

/** `Vary` with Accept-Encoding added, as `compression` adds it (with the same package). */
export function varyWithEncoding(existing: string | undefined): string {
  return vary.append(existing ?? "", "Accept-Encoding");
}

/** Answers below this size are sent as they are (compressing costs more than it saves): `compression`'s threshold. */
export const COMPRESS_MIN_BYTES = 4096;

/**
 * Whether an answer of this type goes out whole, with its Content-Length (JSON: made whole
 * in memory anyway), or streams (pages). `compression` codes a whole answer only from
 * COMPRESS_MIN_BYTES, a streamed one always: the smallest body coded.
 */
export function sentWhole(contentType: string | null | undefined): boolean {
  return (contentType ?? "").startsWith("application/json");
}

/** "::ffff:1.2.3.4" (IPv4 on a dual-stack socket) reads as "1.2.3.4". */
export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

/**
 * The address of the client, as express's `req.ip` finds it with `trust proxy` set to a hop
 * count (the same package, with express's own rule for a count: trust the first N hops).
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const address: string | undefined = proxyAddress(req, (_address, hop) => hop < trustProxy);
  return normalizeIp(address ?? "");
}

/** A request's headers as a Fetch Headers object, repeated headers kept. */
export function fetchHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(incoming)) {
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else if (values) headers.set(key, values);
  }
  return headers;
}

// the lists of compression 1.8 (node has brotli): offered, and preferred when the client
// weighs several alike
const SUPPORTED: Encoding[] = ["br", "gzip", "deflate", "identity"];
const PREFERRED: Encoding[] = ["br", "gzip"];
const negotiated = new Map<string, Encoding>();
const NEGOTIATED_MAX = 200;

/**
 * The content coding the express path's `compression` middleware would choose for this
 * Accept-Encoding: none without the header, else what Negotiator picks among br, gzip,
 * deflate and identity (br, then gzip, on a tie), identity when nothing is acceptable.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = negotiated.get(acceptEncoding);
  if (encoding) return encoding;
  const method = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(SUPPORTED, PREFERRED) as Encoding | undefined;
  encoding = method ?? "identity";
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(acceptEncoding, encoding);
  return encoding;
}

/**
 * A request line's path with its broken percent-encodings escaped (`/%E0%A4%A` →
 * `/%25E0%25A4%25A`): express and Remix's router would fail or warn on every such request,
 * and the site answers it like any unknown address instead. The query is left as sent.
 */
export function repairedTarget(target: string): string {
  const query = target.indexOf("?");
  const pathname = query === -1 ? target : target.slice(0, query);
  try {
    decodeURIComponent(pathname);
    return target;
  } catch {
    return pathname.replace(/%/g, "%25") + (query === -1 ? "" : target.slice(query));
  }
}

/** The first value of a header that may come as a list ("a, b" → "a"), as express reads X-Forwarded-*. */
function firstValue(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value[0] : (value ?? "");
  const comma = text.indexOf(",");
  return (comma === -1 ? text : text.slice(0, comma)).trim();
}

/** The request's protocol as express's `req.protocol` reads it: the connection's, or with TRUST_PROXY the proxy's X-Forwarded-Proto. */
export function requestProtocol(req: IncomingMessage, trustProxy: number): string {
  if ((req.socket as { encrypted?: boolean } | undefined)?.encrypted) return "https";
  return trustProxy > 0 ? firstValue(req.headers["x-forwarded-proto"]) || "http" : "http";
}

/**
 * The address the app sees for a request: the URL of the Fetch Request its loaders read.
 * Made as @remix-run/express makes it, from express's `req.protocol` and `req.hostname`
 * with `trust proxy` set to TRUST_PROXY's hop count, after the path's repair. The one parse
 * of a request's address: the express path builds its Request from it
 * (server/serve.ts), the front its keys and its own Requests (front.ts),
 * so that a stored answer is only ever given to a request the app reads as the same address
 * (a raw `#`, a Host header with a path in it, dot segments: the URL's parse decides for
 * both). Null when it is no address at all, or its host is not a host (the app then
 * answers it with a 400).
 */
export function appRequestUrl(req: IncomingMessage, trustProxy: number): URL | null {
  const trusted = trustProxy > 0;
  const protocol = requestProtocol(req, trustProxy);
  const forwardedHost = firstValue(req.headers["x-forwarded-host"]);
  // an HTTP/1.0 request may come without a Host header
  const host = (trusted && forwardedHost) || String(req.headers.host ?? "") || "localhost";
  // the same request line comes again and again (a popular product): parsed once
  const seen = `${protocol}\n${host}\n${req.headers["x-forwarded-host"] ?? ""}\n${req.headers.host ?? ""}\n${req.url ?? "/"}`;
  const known = parsedAddresses.get(seen);
  if (known !== undefined) return known;
  const url = parseAddress(req, protocol, host);
  if (parsedAddresses.size >= PARSED_ADDRESSES_MAX) parsedAddresses.clear();
  parsedAddresses.set(seen, url);
  return url;
}

/** Addresses parsed lately, by what they were parsed from (never changed once made: callers only read them). */
const parsedAddresses = new Map<string, URL | null>();
const PARSED_ADDRESSES_MAX = 2000;

function parseAddress(req: IncomingMessage, protocol: string, host: string): URL | null {
  // req.hostname: the host without its port (an IPv6 literal keeps its brackets)
  const portAt = host.indexOf(":", host.startsWith("[") ? host.indexOf("]") + 1 : 0);
  const hostname = portAt === -1 ? host : host.slice(0, portAt);
  // a host name, an IPv4 or a bracketed IPv6 address; "shop.example/search?q=" is not one
  // (express would put its path and query into the URL the app reads)
  if (!/^(?:[\w.-]+|\[[\da-f:.]+\])$/i.test(hostname)) return null;
  // @remix-run/express: the port of X-Forwarded-Host (trusted or not), else of Host
  const port = [String(req.headers["x-forwarded-host"] ?? "").split(":")[1], String(req.headers.host ?? "").split(":")[1]]
    .map((value) => Number.parseInt(value ?? "", 10))
    .find(Number.isSafeInteger);
  try {
    return new URL(`${protocol}://${hostname}${port ? `:${port}` : ""}${repairedTarget(req.url ?? "/")}`);
  } catch {
    return null;
  }
}

/** Paths that are never pages (assets, uploads, the API): not looked up. */
const NEVER_PAGES = /^\/(?:build|uploads|api)(?:\/|$)/;

/**
 * The key of a page request: the address the app reads (`appRequestUrl`: the same parse as
 * the app's, so a raw `#`, a dot segment or an odd Host lead where they lead the app) and
 * the choices the app reads from its cookies and Accept-Language; null when its answer may
 * differ per visitor (a session or a flash message) or it is not a page.
 */
export function pageKey(req: IncomingMessage, trustProxy: number): { key: string; url: URL } | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  // assets and uploads, before anything is parsed (a dot segment that leads out of them only misses)
  if (NEVER_PAGES.test(req.url ?? "/")) return null;
  if (mayCarrySession(req.headers.cookie)) return null;
  const url = appRequestUrl(req, trustProxy);
  if (!url) return null;
  return { key: `${url.href}\n${choicesKey(url.pathname, req.headers.cookie, req.headers["accept-language"])}`, url };
}

/**
 * The key of an /api answer: the address the app reads without its `incrementView`
 * parameters (they change the counting, not the answer; each pair of the query is dropped
 * when the app reads its name as incrementView, the others stay as sent, so the key is
 * never an address the app would read otherwise). A page's key has a line break in it, an
 * answer's never: the two never meet.
 */
export function answerKey(url: URL): string {
  let key = answerKeys.get(url);
  if (key === undefined) answerKeys.set(url, (key = answerKeyOf(url)));
  return key;
}

/** The keys of the addresses appRequestUrl() keeps (the same URL object for the same request line). */
const answerKeys = new WeakMap<URL, string>();

function answerKeyOf(url: URL): string {
  if (!url.searchParams.has("incrementView")) return url.href;
  const rest = url.search
    .slice(1)
    .split("&")
    .filter((pair) => !new URLSearchParams(pair).has("incrementView"))
    .join("&");
  return `${url.origin}${url.pathname}${rest ? `?${rest}` : ""}`;
}
