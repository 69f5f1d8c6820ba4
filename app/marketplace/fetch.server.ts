/**
 * Every request this server makes to a marketplace or a short-link service goes through
 * here (docs/decisions/020-marketplace-links.md):
 * - only hosts of the allowlist (the marketplaces, the short-link services, the agents'
 *   sites) are fetched, redirects included (each hop is checked);
 * - a host whose address is private (loopback, the LAN, link-local, carrier NAT…) is
 *   refused, checked at connect time (no window for a DNS change in between); so are the
 *   IPv6 ways to an IPv4 host (mapped and compatible addresses by the address inside,
 *   NAT64, 6to4 and Teredo by their whole prefixes);
 * - a timeout and a cap on the answer's size; one deadline for a walk through redirects;
 * - at most MAX_CONCURRENT requests out at once (the rest wait their turn, within their
 *   own deadline), so visitors pasting links cannot tie up the server's sockets;
 * - MARKETPLACE_BASE_URL (tests: a fake marketplace on 127.0.0.1) takes every request
 *   instead, as <base>/<host><path>?<query>; the allowlist still applies to the URLs.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { getEnv } from "~/lib/env.server";
import { SHORT_LINK_HOSTS } from "./links";
import { answerNotStored } from "~/lib/request-scope.server";

const MAX_BODY_BYTES = 3 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** requests to the outside at once, all callers together */
export const MAX_CONCURRENT = 8;
/** callers waiting for a turn beyond this are refused at once (the server is busy enough) */
const MAX_WAITING = 64;

let running = 0;
const waiting: Array<() => void> = [];

/** Waits for a turn (at most `timeoutMs`); the returned function gives it back. */
function turn(timeoutMs: number): Promise<() => void> {
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };
  if (running < MAX_CONCURRENT) {
    running += 1;
    return Promise.resolve(release);
  }
  if (waiting.length >= MAX_WAITING) return Promise.reject(new Error("too many requests to the marketplaces at once"));
  return new Promise((resolve, reject) => {
    const go = () => {
      clearTimeout(timer);
      running += 1;
      resolve(release);
    };
    const timer = setTimeout(() => {
      const at = waiting.indexOf(go);
      if (at !== -1) waiting.splice(at, 1);
      reject(new Error(`no turn to reach the marketplaces within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.push(go);
  });
}
const USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/** Domains this server may fetch (a host matches itself and its subdomains). */
const MARKETPLACE_DOMAINS = [
  "weidian.com",
  "youshop10.com",
  "weidian.info",
  "koudai.com",
  "taobao.com",
  "tmall.com",
  "tmall.hk",
  "tb.cn",
  "1688.com",
];

export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchRefused";
  }
}

const hostIs = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** Whether a host may be fetched: the marketplaces, the short-link services and the given extra domains (the agents' sites). */
export function isAllowedHost(host: string, extraDomains: readonly string[] = []): boolean {
  const lower = host.toLowerCase().replace(/\.$/, "");
  if (net.isIP(lower)) return false;
  return [...MARKETPLACE_DOMAINS, ...SHORT_LINK_HOSTS, ...extraDomains].some((domain) => hostIs(lower, domain.toLowerCase()));
}

const PRIVATE = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  // IPv4-compatible (deprecated): ::a.b.c.d reaches the IPv4 host on some stacks
  ["::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  // NAT64: the well-known prefix and the local-use one (RFC 8215) hand the packet to an IPv4 host
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  // 6to4 and Teredo tunnel to IPv4 hosts (the embedded address can be anything): whole prefixes
  ["2002::", 16],
  ["2001::", 32],
  ["2001:db8::", 32],
] as const) {
  PRIVATE.addSubnet(address, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed, no zone), or null. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  const groupsOf = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const head = groupsOf(halves[0]);
  const tail = halves.length > 1 ? groupsOf(halves[1]) : [];
  const groups = halves.length > 1 ? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 ? groups : null;
}

/**
 * The IPv4 address an IPv6 address stands for, where the prefix says one is inside:
 * IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d and IPv4-translated
 * ::ffff:0:a.b.c.d, however written (dotted or hex). NAT64, 6to4 and Teredo are blocked
 * whole (PRIVATE) and not read here.
 */
function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const mappedOrCompatible = zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0);
  const translated = zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0;
  if (!mappedOrCompatible && !translated) return null;
  return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
}

/**
 * Whether an address is not on the public internet: the IPv4 ranges above, the IPv6 ones,
 * and IPv6 addresses that stand for a private IPv4 one. A zone index (fe80::1%eth0) is
 * dropped first; anything that is not an address counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family === 6) {
    const unzoned = address.replace(/%.*$/, "");
    const groups = ipv6Groups(unzoned);
    if (!groups) return true;
    const ipv4 = embeddedIpv4(groups);
    if (ipv4 && PRIVATE.check(ipv4, "ipv4")) return true;
    return PRIVATE.check(unzoned, "ipv6");
  }
  return true;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that refuses private addresses: used by the socket itself, so what is checked is what is dialled. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as dns.LookupAddress[];
    const blocked = list.find((entry) => isPrivateAddress(entry.address));
    if (blocked || list.length === 0) {
      const refused: NodeJS.ErrnoException = new FetchRefused(`${hostname} has a private address`);
      refused.code = "EPRIVATE";
      return callback(refused, []);
    }
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

export type FetchAnswer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** the answer as text (empty when `bytes` was asked for) */
  body: string;
  /** the answer's bytes, when asked for (fetchPicture) */
  bytes?: Buffer;
  url: string;
};

type FetchOptions = {
  extraDomains?: readonly string[];
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** any host with a public address, not only the marketplaces' (pictures: fetchPicture) */
  anyPublicHost?: boolean;
  /** answer the bytes, at most this many (instead of text of at most 3 MB) */
  bytesUpTo?: number;
};

/** Where a request for `url` goes: the URL itself, or the test base (MARKETPLACE_BASE_URL) when set. */
function target(url: URL): { url: URL; viaBase: boolean } {
  const base = getEnv().MARKETPLACE_BASE_URL;
  if (!base) return { url, viaBase: false };
  return { url: new URL(`${base.replace(/\/+$/, "")}/${url.host}${url.pathname}${url.search}`), viaBase: true };
}

/**
 * One GET (redirects are not followed: see followRedirects). Answers the status, headers
 * and body as text (at most 3 MB). Throws FetchRefused for a host outside the allowlist
 * or with a private address, and an Error on timeouts and network failures.
 */
export function fetchOnce(raw: string | URL, options: FetchOptions = {}): Promise<FetchAnswer> {
  // what the outside answered (or did not) this time is not kept for others
  // (docs/decisions/035-kept-only-when-the-answer-says-so.md)
  answerNotStored();
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return Promise.reject(new FetchRefused(`${url.protocol} links are not fetched`));
  if (url.username || url.password) return Promise.reject(new FetchRefused("links with credentials are not fetched"));
  if (
    options.anyPublicHost
      ? net.isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0 && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ""))
      : !isAllowedHost(url.hostname, options.extraDomains)
  )
    return Promise.reject(new FetchRefused(`${url.hostname} is not a marketplace`));
  const destination = target(url);
  const timeoutMs = options.timeoutMs ?? getEnv().MARKETPLACE_TIMEOUT_MS;
  const started = Date.now();
  return turn(timeoutMs).then((release) => {
    const left = Math.max(1, timeoutMs - (Date.now() - started));
    return getOnce(url, destination, left, options.headers, options.bytesUpTo).finally(release);
  });
}

function getOnce(
  url: URL,
  destination: { url: URL; viaBase: boolean },
  timeoutMs: number,
  headers: Record<string, string> | undefined,
  bytesUpTo: number | undefined,
): Promise<FetchAnswer> {
  const maxBytes = bytesUpTo ?? MAX_BODY_BYTES;
  const client = destination.url.protocol === "https:" ? https : http;
  return new Promise<FetchAnswer>((resolve, reject) => {
    const request = client.get(
      destination.url,
      {
        headers: {
          "User-Agent": USER_AGENT,
          Accept: "text/html,application/json;q=0.9,*/*;q=0.8",
          "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8",
          ...headers,
        },
        timeout: timeoutMs,
        // the configured base is trusted (it is the operator's own fake); anything else must be public
        ...(destination.viaBase ? {} : { lookup: publicLookup as unknown as net.LookupFunction }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            request.destroy(new Error(`the answer of ${url.hostname} is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          const all = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: bytesUpTo === undefined ? all.toString("utf8") : "",
            ...(bytesUpTo === undefined ? {} : { bytes: all }),
            url: url.href,
          });
        });
        response.on("error", reject);
      },
    );
    // a total deadline as well: `timeout` alone only bounds silence between packets
    const late = () => request.destroy(new Error(`${url.hostname} did not answer within ${timeoutMs} ms`));
    const deadline = setTimeout(late, timeoutMs);
    request.on("timeout", late);
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.on("close", () => clearTimeout(deadline));
  });
}

/**
 * Follows redirects from `start` (at most 5), each hop checked like the first, all of them
 * within one deadline (`timeoutMs`, MARKETPLACE_TIMEOUT_MS by default: not per hop). `stop`
 * looks at every URL on the way (and at the last answer's body) and ends the walk when it
 * finds what it looks for.
 */
export async function followRedirects<T>(
  start: string,
  stop: (url: URL, answer: FetchAnswer | null) => T | null,
  options: Pick<FetchOptions, "extraDomains" | "timeoutMs" | "anyPublicHost" | "bytesUpTo"> = {},
): Promise<T | null> {
  const timeoutMs = options.timeoutMs ?? getEnv().MARKETPLACE_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let url = new URL(start);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const early = hop > 0 ? stop(url, null) : null;
    if (early) return early;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`${new URL(start).hostname}: no answer within ${timeoutMs} ms (${hop} redirects)`);
    const answer = await fetchOnce(url, { ...options, timeoutMs: left });
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) {
      url = new URL(String(answer.headers.location), url);
      continue;
    }
    return stop(url, answer);
  }
  throw new FetchRefused("too many redirects");
}

/**
 * A picture at a public address (a product image on a marketplace's CDN or elsewhere), for
 * its fingerprint: redirects followed, each hop checked; the address must be public (no
 * loopback, no LAN: checked at connect time), the answer at most `maxBytes`.
 */
export async function fetchPicture(url: string, maxBytes: number, timeoutMs = 15_000): Promise<Buffer> {
  const answer = await followRedirects(url, (_at, got) => got, { anyPublicHost: true, bytesUpTo: maxBytes, timeoutMs });
  if (!answer || answer.status !== 200 || !answer.bytes)
    throw new Error(`${new URL(url).hostname} answered ${answer?.status ?? "nothing"}`);
  return answer.bytes;
}
