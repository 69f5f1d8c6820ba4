/**
 * The front's differential check (docs/decisions/022-front-rules.md): a seeded, random
 * sequence of requests as real clients send them (GET and HEAD; every Accept-Encoding;
 * no, valid, lower-case, padded and invalid currency and agent cookies; query-string
 * variants; proxies' headers; now and then a session, a token or a conditional request)
 * and of content changes in between, sent to the server's main port. Every answer the
 * front gives from memory (a stored page: X-Page-Cache, a stored API answer: X-Answer-Cache)
 * is compared with what the app renders for the same request on the server's reference
 * port (REFERENCE_PORT: express and Remix, never the front): status, every header but the
 * connection's own, and the body byte for byte once decoded, the CSP nonce masked. Every
 * body is also checked to be well-formed UTF-8 without NUL bytes. Request lines as
 * attackers write them (a raw `#`, `;`, `%23`, `%00`, repeated and empty parameters, a
 * Host with a path in it), each followed now and then by the plain line it might be
 * stored for; pasted short links from visitors who have used up their marketplace fetches
 * (`limitedAddress`) and from others, while the marketplace does not answer. A fifth of the
 * page requests ask for the page's hydration data (`?_hydration=1`, decision 044).
 *
 * Used by tests/integration/front-differential.test.ts (a short run in `npm test`) and by
 * `npm run bench -- --differential [steps]` (a long one).
 */
import http from "node:http";
import zlib from "node:zlib";
import { countsAsView } from "../../app/lib/crawlers";
import { PASTE_MESSAGES } from "../../app/schemas/marketplace-rules";

export type DifferentialOptions = {
  /** the server's main port and its reference port, on 127.0.0.1 */
  port: number;
  referencePort: number;
  seed: number;
  steps: number;
  /** an admin's bearer token (content changes) and session cookie ("sid=...") */
  adminToken: string;
  adminCookie: string;
  /** a regular user's bearer token (likes) */
  userToken?: string;
  /**
   * An address (sent as X-Forwarded-For: the server trusts one proxy) whose marketplace
   * fetches are used up before the run; without it, no request claims an address.
   */
  limitedAddress?: string;
  log?: (line: string) => void;
};

export type Mismatch = { step: number; request: string; reason: string };

export type DifferentialReport = {
  seed: number;
  requests: number;
  /** answers given by the front and compared with the reference */
  compared: number;
  storedPages: number;
  storedJson: number;
  /** front answers whose entry was dropped between the answer and the comparison (a change raced it) */
  raced: number;
  changes: number;
  mismatches: Mismatch[];
};

type Answer = { status: number; headers: http.IncomingHttpHeaders; raw: Buffer; body: Buffer };
type Req = {
  method: "GET" | "HEAD";
  path: string;
  headers: Record<string, string>;
  /** a request line sent right after with the same headers: the one an odd line above may have been stored for */
  followUp?: string;
};

/** mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const chance = (p: number) => next() < p;
  return { next, pick, chance, int: (n: number) => Math.floor(next() * n) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(port: number, req: Req): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, path: req.path, method: req.method, headers: req.headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          try {
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              raw,
              body: decode(raw, String(response.headers["content-encoding"] ?? "")),
            });
          } catch (error) {
            reject(
              new Error(
                `${req.method} ${req.path}: the body does not decode as ${response.headers["content-encoding"]}: ${(error as Error).message}`,
              ),
            );
          }
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

function decode(raw: Buffer, encoding: string): Buffer {
  if (!raw.length) return raw;
  switch (encoding) {
    case "gzip":
      return zlib.gunzipSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    default:
      return raw;
  }
}

async function json<T = any>(
  port: number,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (payload) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(payload.length);
    }
    const request = http.request({ host: "127.0.0.1", port, path, method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = decode(Buffer.concat(chunks), String(response.headers["content-encoding"] ?? "")).toString("utf8");
        try {
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        } catch {
          resolve({ status: response.statusCode ?? 0, body: text as T });
        }
      });
    });
    request.on("error", reject);
    request.end(payload);
  });
}

/** Headers that belong to the connection or name who answered, not to the answer. */
const CONNECTION_HEADERS = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "x-page-cache",
  "x-answer-cache",
]);

const nonceOf = (headers: http.IncomingHttpHeaders) =>
  /'nonce-([^']+)'/.exec(String(headers["content-security-policy"] ?? ""))?.[1] ?? null;

function masked(text: string, nonce: string | null): string {
  return nonce ? text.split(nonce).join("NONCE") : text;
}

function headerMap(answer: Answer): Map<string, string> {
  const nonce = nonceOf(answer.headers);
  const map = new Map<string, string>();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (CONNECTION_HEADERS.has(name) || value === undefined) continue;
    map.set(name, masked(Array.isArray(value) ? value.join("\n") : value, nonce));
  }
  return map;
}

/** Where two texts first differ, with a little context. */
function firstDifference(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return `at ${n}: front …${JSON.stringify(a.slice(Math.max(0, n - 60), n + 60))}… app …${JSON.stringify(b.slice(Math.max(0, n - 60), n + 60))}…`;
}

/** Why two answers differ, or null when the front's equals the app's. */
function compare(front: Answer, app: Answer, request: Req, productRead: boolean): string | null {
  if (front.status !== app.status) return `status ${front.status} from the front, ${app.status} from the app`;
  const frontHeaders = headerMap(front);
  const appHeaders = headerMap(app);
  for (const name of new Set([...frontHeaders.keys(), ...appHeaders.keys()])) {
    if (frontHeaders.get(name) !== appHeaders.get(name))
      return `header ${name}: front ${JSON.stringify(frontHeaders.get(name))}, app ${JSON.stringify(appHeaders.get(name))}`;
  }
  const length = front.headers["content-length"];
  if (request.method === "GET" && length !== undefined && Number(length) !== front.raw.length)
    return `Content-Length ${length} but ${front.raw.length} bytes sent`;
  if (request.method === "HEAD") return front.raw.length ? `a HEAD answer with ${front.raw.length} bytes of body` : null;
  const frontText = masked(front.body.toString("utf8"), nonceOf(front.headers));
  let appText = masked(app.body.toString("utf8"), nonceOf(app.headers));
  if (productRead) {
    // the app's render counted a view of its own, after the front's answer counted one
    const frontCount = Number(/"view_count":(\d+)/.exec(frontText)?.[1]);
    const appCount = Number(/"view_count":(\d+)/.exec(appText)?.[1]);
    if (appCount !== frontCount + 1) return `view_count ${frontCount} from the front, ${appCount} from the app after one more view`;
    appText = appText.replace(/"view_count":\d+/, `"view_count":${frontCount}`);
  }
  if (frontText !== appText) return `body ${firstDifference(frontText, appText)}`;
  return null;
}

/** A body that is not well-formed UTF-8 or holds NUL bytes. */
function brokenText(answer: Answer): string | null {
  const type = String(answer.headers["content-type"] ?? "");
  if (!/^(text\/|application\/(json|xml|rss|atom))/.test(type)) return null;
  if (answer.body.includes(0)) return `${answer.body.indexOf(0)}: a NUL byte in a ${type} body`;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(answer.body);
  } catch {
    return `a ${type} body that is not well-formed UTF-8`;
  }
  return null;
}

type Catalogue = {
  productPaths: string[];
  productIds: number[];
  items: Array<{ platform: string; itemId: string }>;
  categoryIds: number[];
  words: string[];
  posts: string[];
  blogCategories: string[];
  blogTags: string[];
  postIds: number[];
};

async function readCatalogue(port: number, token: string): Promise<Catalogue> {
  const products = (await json(port, "GET", "/api/admin/products?limit=100", token)).body;
  const list: Array<Record<string, unknown>> = products.items ?? products.data ?? [];
  const categories = (await json(port, "GET", "/api/categories", undefined)).body.data as Array<{ id: number }>;
  const posts = (await json(port, "GET", "/api/blog/admin/posts?limit=50", token)).body.data.posts as Array<{
    id: number;
    slug: string;
    status: string;
    tags: Array<{ slug: string }>;
  }>;
  const blogCategories = (await json(port, "GET", "/api/blog/categories", undefined)).body.data as Array<{ slug: string }>;
  const words = new Set<string>(["hoodie", "耐克", "连帽卫衣", "jacket", "nothing-matches-this", "外套", "a", "Nike 耐克"]);
  for (const product of list.slice(0, 30)) {
    const name = String(product.title ?? product.name ?? "");
    for (const word of name
      .split(/\s+/)
      .filter((w: string) => w.length >= 2)
      .slice(0, 2))
      words.add(word);
  }
  return {
    productPaths: list.map((p) => String(p.url)),
    productIds: list.map((p) => Number(p.id)),
    items: list
      .filter((p) => p.platform && p.platform_item_id)
      .map((p) => ({ platform: String(p.platform), itemId: String(p.platform_item_id) })),
    categoryIds: categories.map((c) => c.id),
    words: [...words],
    posts: posts.filter((p) => p.status === "published").map((p) => p.slug),
    postIds: posts.filter((p) => p.status === "published").map((p) => p.id),
    blogCategories: blogCategories.map((c) => c.slug),
    blogTags: [...new Set(posts.flatMap((p) => p.tags.map((t) => t.slug)))],
  };
}

const ENCODINGS = [
  "",
  "gzip",
  "br",
  "gzip, deflate, br",
  "gzip, deflate, br, zstd",
  "deflate",
  "gzip;q=0, br",
  "identity",
  "*",
  "br;q=0.5, gzip",
  "gzip;q=0",
  "compress",
];
const AGENTS = [
  "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0 Safari/537.36",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "curl/8.5.0",
  "UptimeRobot/2.0",
];
const CURRENCY_COOKIES = [
  "currency=EUR",
  "currency=krw",
  " currency = KRW ",
  "currency=EURx",
  "currency=GBP; currency=JPY",
  "currency=xx; currency=cad",
  "currency=",
  "currency=USD",
];
const AGENT_COOKIES = ["agent=1", "agent= 2", "agent=abc", "agent=999999", "agent=3 ", "agent=02"];
/** the `lang` cookie as browsers and odd clients send it: the page's language (decision 031) */
const LANGUAGE_COOKIES = [
  "lang=zh-CN",
  "lang=en",
  "lang=zh-cn",
  " lang = zh ",
  'lang="zh-CN"',
  "lang=fr",
  "lang=",
  "LANG=zh-CN",
  "lang=en-GB",
];
const OTHER_COOKIES = ["theme=dark", "_ga=GA1.2.3", "sid=garbage-not-a-session", "toast=x", "SID=upper", "sidx=1"];

/** A word with one letter changed (a shopper's typo). */
function typo(word: string): string {
  const chars = Array.from(word);
  if (chars.length < 4) return word;
  const at = 1 + (chars.length % (chars.length - 1));
  chars[at] = chars[at] === "x" ? "q" : "x";
  return chars.join("");
}

function randomRequest(
  rng: ReturnType<typeof generator>,
  catalogue: Catalogue,
  adminCookie: string,
  adminToken: string,
  limitedAddress: string | undefined,
): Req {
  const product = () => rng.pick(catalogue.productPaths);
  const word = () => encodeURIComponent(rng.pick(catalogue.words));
  const page: Array<() => string> = [
    () => "/",
    () => `/?utm_source=x${rng.int(3)}`,
    () => `/search?q=${word()}`,
    () => `/search?q=${word()}&sort=${rng.pick(["popular", "newest", "price_asc", "relevance", "bogus"])}`,
    () => `/search?q=${word()}&page=${rng.pick(["1", "2", "0", "x"])}`,
    () => `/search?q=${word()}&external=${rng.pick(["local", "external", ""])}`,
    // the shoppers' filters (prices are in the currency the cookie picks), typos, words run together, aliases
    () =>
      `/search?q=${word()}&platform=${rng.pick(["weidian", "taobao", "1688", "ebay"])}${rng.chance(0.5) ? "&platform=tmall" : ""}&qc=${rng.pick(["1", "", "on"])}`,
    () =>
      `/search?q=${word()}&min=${rng.pick(["1", "10", "abc", ""])}&max=${rng.pick(["50", "500", "5", "1e3"])}&sort=${rng.pick(["qc", "price_desc"])}`,
    () => `/search?${rng.chance(0.5) ? `q=${word()}&` : ""}per=${rng.pick(["12", "24", "48", "13"])}&page=${rng.pick(["1", "2"])}`,
    () => `/search?q=${encodeURIComponent(typo(rng.pick(catalogue.words)))}`,
    () => `/search?q=${encodeURIComponent(rng.pick(["af1", "aj", "耐克", "nike", "airforce", "hoodiesweat", "zzqxjv", "hoodie zzqxjv"]))}`,
    () => `/search?platform=${rng.pick(["weidian", "tmall"])}&sort=${rng.pick(["qc", "newest", "relevance"])}`,
    () => "/search",
    () => `/search?q=a%00b`,
    // request lines as attackers write them: the app reads a raw "#" as the end of the address
    () => `/search?q=${word()}#&q=${word()}`,
    () => `/search?q=${word()};q=${word()}`,
    () => `/search?q=${word()}%23x&sort=newest`,
    () => `/search?q=%00${word()}&q=${word()}`,
    () => `/search?q=&q=${word()}&&per=12&`,
    () => `/search?q=${word()}&page=2&page=1`,
    () => `${product()}#reviews`,
    () => `/category/${rng.pick(catalogue.categoryIds)}?sort=price_asc#&sort=price_desc`,
    () => `/product/../search?q=${word()}`,
    () => `/category/${rng.pick(catalogue.categoryIds)}`,
    () => `/category/${rng.pick(catalogue.categoryIds)}?sort=${rng.pick(["popular", "newest", "price_desc", "qc"])}`,
    () => `/category/${rng.pick(catalogue.categoryIds)}?platform=${rng.pick(["weidian", "taobao"])}&min=${rng.pick(["5", "50"])}&qc=1`,
    () => product(),
    () => product(),
    () => `${product()}?incrementView=false`,
    () => `/product/${rng.pick(catalogue.productIds)}`,
    () => `/product/999999`,
    () => "/blog",
    () => "/blog?page=2",
    () => (catalogue.posts.length ? `/blog/${rng.pick(catalogue.posts)}` : "/blog"),
    () => (catalogue.blogCategories.length ? `/blog/category/${rng.pick(catalogue.blogCategories)}` : "/blog"),
    () => (catalogue.blogTags.length ? `/blog/tag/${rng.pick(catalogue.blogTags)}` : "/blog"),
  ];
  const apiPaths: Array<() => string> = [
    () => `/api/products/${rng.pick(catalogue.productIds)}`,
    () => `/api/products/${rng.pick(catalogue.productIds)}?incrementView=false`,
    () => {
      const item = rng.pick(catalogue.items);
      return `/api/products/platform/${item.itemId}${rng.chance(0.5) ? `?platform=${item.platform}` : ""}`;
    },
    () => `/api/products/search?q=${word()}`,
    () => `/api/products/search?q=${word()}&limit=${rng.pick(["8", "20", "50"])}&page=${rng.pick(["1", "2"])}`,
    () => `/api/products/search?q=${word()}&sortBy=${rng.pick(["popular", "newest", "price_asc"])}`,
    () => `/api/products?page=${rng.pick(["1", "2"])}&limit=${rng.pick(["10", "50"])}`,
    () => `/api/products?isExternal=${rng.pick(["true", "false"])}`,
    () =>
      `/api/products/search?q=${word()}&platform=${rng.pick(["weidian", "taobao,tmall", "ebay"])}&minPrice=${rng.pick(["0", "50", "-1"])}&hasQc=${rng.pick(["1", "0"])}&sortBy=${rng.pick(["qc", "price_asc"])}`,
    () =>
      `/api/products?platform=${rng.pick(["weidian", "1688"])}&maxPrice=${rng.pick(["100", "1000"])}&sortBy=${rng.pick(["qc", "newest", "popular"])}`,
    () => `/api/products/search?q=${encodeURIComponent(typo(rng.pick(catalogue.words)))}`,
    () => "/api/categories",
    () => "/api/exchange-rates",
    () => `/api/products/${rng.pick(catalogue.productIds)}#x`,
    () => `/api/products/search?q=${word()}%23&limit=3`,
    () => `/api/products?limit=3;page=2`,
    () => `/api/products?page=&limit=&limit=5`,
  ];
  // a line whose query the app reads only up to the "#", then the line it might be stored for
  const poisoned: Array<() => { path: string; followUp: string }> = [
    () => {
      const rest = `q=${word()}&limit=3`;
      return { path: `/api/products?incrementView=1#&${rest}`, followUp: `/api/products?${rest}` };
    },
    () => {
      const rest = `q=${word()}&sortBy=${rng.pick(["price_asc", "price_desc", "newest"])}`;
      return { path: `/api/products/search?incrementView=1#&${rest}`, followUp: `/api/products/search?${rest}` };
    },
    () => {
      const rest = `q=${word()}&sort=price_desc`;
      return { path: `/search?incrementView=1#&${rest}`, followUp: `/search?${rest}` };
    },
  ];
  let path: string;
  let followUp: string | undefined;
  const kind = rng.next();
  if (kind < 0.06) ({ path, followUp } = rng.pick(poisoned)());
  else if (kind < 0.1) path = `/search?q=${encodeURIComponent(`https://m.tb.cn/h.${rng.pick(SHORT_CODES)}`)}`;
  else path = rng.chance(0.7) ? rng.pick(page)() : rng.pick(apiPaths)();
  // what a page the same for every visitor hydrates with, asked for at its address (decision 044)
  if (kind >= 0.06 && !path.startsWith("/api/") && rng.chance(0.2)) path += `${path.includes("?") ? "&" : "?"}_hydration=1`;
  const headers: Record<string, string> = { "User-Agent": rng.pick(AGENTS) };
  const encoding = rng.pick(ENCODINGS);
  if (encoding) headers["Accept-Encoding"] = encoding;
  const cookies: string[] = [];
  if (rng.chance(0.45)) cookies.push(rng.pick(CURRENCY_COOKIES));
  if (rng.chance(0.3)) cookies.push(rng.pick(AGENT_COOKIES));
  if (rng.chance(0.3)) cookies.push(rng.pick(LANGUAGE_COOKIES));
  if (rng.chance(0.15)) cookies.push(rng.pick(OTHER_COOKIES));
  if (rng.chance(0.06)) cookies.push(adminCookie);
  if (cookies.length) headers.Cookie = rng.chance(0.5) ? cookies.join("; ") : cookies.join(";");
  if (path.startsWith("/api/") && rng.chance(0.06)) headers.Authorization = `Bearer ${adminToken}`;
  if (rng.chance(0.1)) headers["X-Forwarded-Proto"] = "https";
  if (rng.chance(0.1)) headers["X-Forwarded-For"] = `203.0.113.${rng.int(200)}`;
  // a pasted short link, by a visitor who has used up their marketplace fetches or by another
  if (limitedAddress && path.includes("m.tb.cn") && rng.chance(0.5)) headers["X-Forwarded-For"] = limitedAddress;
  if (rng.chance(0.05)) headers.Host = rng.pick(["shop.example", "127.0.0.1", "localhost:80", "shop.example/search?q=x", "[::1]:80"]);
  if (rng.chance(0.05)) headers["If-None-Match"] = '"abc"';
  if (rng.chance(0.05)) headers["If-Modified-Since"] = new Date(Date.now() - 3600_000).toUTCString();
  if (rng.chance(0.05)) headers.Range = "bytes=0-99";
  if (rng.chance(0.35))
    headers["Accept-Language"] = rng.pick([
      "zh-CN,zh;q=0.9",
      "en-US,en;q=0.8",
      "ko",
      "fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.4",
      "en;q=0, zh-TW",
      "*",
      "zh-Hant-HK",
      "de;q=0.9,en;q=0.9",
      "es-MX,es;q=0.9",
      "pt-BR",
    ]);
  if (rng.chance(0.05)) headers.Accept = "application/json";
  return { method: rng.chance(0.2) ? "HEAD" : "GET", path, headers, followUp };
}

/** Short links a shopper pastes (the marketplace never answers them in a run). */
const SHORT_CODES = ["5Ds9aXy", "8xQ2pLm", "2kT7vRz"];

const LONG_CHINESE =
  "这款加绒连帽卫衣采用重磅棉质面料，手感厚实柔软，版型宽松，适合秋冬季节日常穿着。帽檐双层设计，抽绳可调节，袖口和下摆为罗纹收口，保暖防风。" +
  "细节做工：走线平整，无明显线头；胸前刺绣图案立体饱满；吊牌与水洗标齐全。尺码建议：身高170厘米体重65公斤选择M码，喜欢宽松效果可以大一码。";

/** One content change through the admin API (catalogue, rates, settings, blog), as staff make them. */
async function changeContent(
  rng: ReturnType<typeof generator>,
  port: number,
  options: DifferentialOptions,
  catalogue: Catalogue,
  step: number,
): Promise<string> {
  const token = options.adminToken;
  switch (rng.int(8)) {
    case 0: {
      const id = rng.pick(catalogue.productIds);
      await json(port, "PUT", `/api/admin/products/${id}`, token, { price_cny: Math.round(rng.next() * 90000) / 100 + 1 });
      return `product ${id} price`;
    }
    case 1: {
      const repeat = 2 + rng.int(12);
      const result = await json(port, "POST", "/api/admin/products", token, {
        name: `差分测试 ${step} 加绒连帽卫衣 hoodie`,
        description: Array.from({ length: repeat }, () => LONG_CHINESE).join("\n"),
        price_cny: 10 + rng.int(500),
        category_id: rng.pick(catalogue.categoryIds),
        platform: rng.pick(["weidian", "taobao", "tmall", "1688"]),
        platform_item_id: String(7_000_000_000 + step * 97 + rng.int(90)),
        skus: [{ sku_name: `黑色 ${"均码".repeat(1 + rng.int(4))}`, sku_price: 99, sku_stock: 3 }],
      });
      if (result.status === 200 || result.status === 201) {
        const product = result.body.data;
        catalogue.productIds.push(product.id);
        catalogue.productPaths.push(product.url);
        if (product.platform_item_id) catalogue.items.push({ platform: product.platform, itemId: product.platform_item_id });
      }
      return `new product (${result.status})`;
    }
    case 2: {
      await json(port, "PUT", "/api/admin/exchange-rates", token, { rates: { USD: 6 + Math.round(rng.next() * 200) / 100, KRW: 0.0049 } });
      return "rates";
    }
    case 3: {
      const value = rng.chance(0.5) ? "true" : "false";
      await json(port, "PUT", "/api/site-settings/admin/settings", token, {
        settings: { show_external_products: value, site_title: `差分 ${step}` },
      });
      return `settings (external ${value})`;
    }
    case 4: {
      const result = await json(port, "POST", "/api/blog/posts", token, {
        title: `差分博客 ${step} QC guide`,
        content: `<p>${LONG_CHINESE.repeat(1 + rng.int(6))}</p><p><code>&lt;img src=x onerror=alert(1)&gt;</code></p>`,
        status: "published",
        tags: ["qc", rng.pick(["尺码", "shoes"])],
      });
      if (result.status === 201 || result.status === 200) {
        catalogue.posts.push(result.body.data.slug);
        catalogue.postIds.push(result.body.data.id);
      }
      return `blog post (${result.status})`;
    }
    case 5: {
      if (!options.userToken || !catalogue.postIds.length) return "nothing";
      const id = rng.pick(catalogue.postIds);
      await json(port, "POST", `/api/blog/posts/${id}/like`, options.userToken, {});
      return `like of post ${id}`;
    }
    case 6: {
      // staff's search words: the stored search pages and answers follow
      const term = `dw${step % 7}`;
      const list = await json(port, "GET", "/api/admin/search-aliases", token);
      const existing = (list.body?.data ?? []).find((alias: { term: string }) => alias.term === term);
      if (existing) await json(port, "DELETE", `/api/admin/search-aliases/${existing.id}`, token);
      else
        await json(port, "POST", "/api/admin/search-aliases", token, {
          term,
          alternatives: [rng.pick(catalogue.words)],
          both_ways: rng.chance(0.5),
        });
      return `search alias ${term} (${existing ? "deleted" : "added"})`;
    }
    default: {
      const id = rng.pick(catalogue.categoryIds);
      await json(port, "PUT", `/api/admin/categories/${id}`, token, { name: `分类 ${id}-${step % 5}` });
      return `category ${id}`;
    }
  }
}

const fromFront = (answer: Answer) => answer.headers["x-page-cache"] === "hit" || answer.headers["x-answer-cache"] === "hit";

/** A product's own answer, which counts a view (read as the app reads the line: up to a raw "#"). */
function isProductRead(request: Req): boolean {
  const url = new URL(`http://differential${request.path}`);
  return (
    request.method === "GET" &&
    /^\/api\/products\/(\d+|platform\/[^/]+)$/.test(url.pathname) &&
    countsAsView(request.headers["User-Agent"], url.searchParams.get("incrementView"))
  );
}

/** Pastes short links from `address` until the search page says its marketplace fetches are used up. */
async function useUpFetches(port: number, address: string): Promise<void> {
  for (let n = 0; n < 500; n++) {
    const answer = await send(port, {
      method: "GET",
      path: `/search?q=${encodeURIComponent(`https://m.tb.cn/h.${SHORT_CODES[n % SHORT_CODES.length]}`)}`,
      headers: { "X-Forwarded-For": address, "Accept-Language": "en" },
    });
    if (answer.body.toString("utf8").includes(PASTE_MESSAGES.tooMany)) return;
  }
  throw new Error(`${address}: the marketplace limit was never reached`);
}

export async function runDifferential(options: DifferentialOptions): Promise<DifferentialReport> {
  const rng = generator(options.seed);
  const catalogue = await readCatalogue(options.port, options.adminToken);
  if (options.limitedAddress) await useUpFetches(options.port, options.limitedAddress);
  const report: DifferentialReport = {
    seed: options.seed,
    requests: 0,
    compared: 0,
    storedPages: 0,
    storedJson: 0,
    raced: 0,
    changes: 0,
    mismatches: [],
  };
  const fail = (step: number, request: Req, reason: string) => {
    report.mismatches.push({ step, request: `${request.method} ${request.path} ${JSON.stringify(request.headers)}`, reason });
    options.log?.(`step ${step}: ${request.method} ${request.path}: ${reason}`);
  };
  for (let step = 0; step < options.steps; step++) {
    if (rng.chance(0.04)) {
      const what = await changeContent(rng, options.port, options, catalogue, step);
      report.changes += 1;
      options.log?.(`step ${step}: changed ${what}`);
      continue;
    }
    const request = randomRequest(rng, catalogue, options.adminCookie, options.adminToken, options.limitedAddress);
    // the same request a few times: the first is rendered (and maybe stored), the next may
    // come from memory; then the line an odd one might have been stored for
    const repeats = 1 + rng.int(3);
    const lines = Array.from({ length: repeats }, () => request);
    if (request.followUp) lines.push({ ...request, path: request.followUp, followUp: undefined }, { ...request, path: request.followUp });
    for (const line of lines) {
      const front = await send(options.port, line);
      report.requests += 1;
      const broken = brokenText(front);
      if (broken) fail(step, line, broken);
      if (!fromFront(front)) continue;
      if (front.headers["x-page-cache"]) report.storedPages += 1;
      else report.storedJson += 1;
      const app = await send(options.referencePort, line);
      const brokenApp = brokenText(app);
      if (brokenApp) fail(step, line, `app: ${brokenApp}`);
      report.compared += 1;
      const reason = compare(front, app, line, isProductRead(line));
      if (!reason) continue;
      // a change between the two (a view written, a rate fetched) may have raced them: a
      // wrong copy is still there when asked again, a raced one is gone
      const again = await send(options.port, line);
      if (!fromFront(again)) {
        report.raced += 1;
        continue;
      }
      const appAgain = await send(options.referencePort, line);
      const second = compare(again, appAgain, line, isProductRead(line));
      if (second) fail(step, line, second);
      else report.raced += 1;
    }
  }
  return report;
}
