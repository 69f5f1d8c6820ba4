/**
 * `npm run bench [-- --products N | --large] [--duration S] [--data-dir DIR] [--build] [--profile DIR]`
 *
 * A real benchmark of the production server on a large catalogue:
 *  1. builds a separate database (a temporary DATA_DIR) with 100,000 products (1,000,000
 *     with --large), bilingual names, categories, SKUs for some, in one transaction;
 *  2. starts the server exactly as `npm start` does (node scripts/start.mjs: the compiled server,
 *     production mode, SEED_DEMO=0), building first when there is no build;
 *  3. measures with autocannon (10 connections, a warm-up, then --duration seconds) a raw
 *     node:http hello-world server and the catalogue's API and pages, and prints req/s,
 *     p50/p99 latency, the ratio to raw node:http, the server's RSS and the page weights,
 *     then the targets and whether each is met.
 *
 * Exits 0 when the measurements ran (missed targets are reported, not failed); 1 when the
 * server could not be started. See docs/performance.md.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { createKysely, openSqlite } from "../db/connection";
import { migrateToLatest } from "../db/migrate";
import { marketplaceUrl, PLATFORMS } from "../app/schemas/catalogue-rules";
import { seededRandom } from "../db/seed-catalogue";
import { countWords, htmlToText, readingTime } from "../app/lib/blog-text";
import { startArgs } from "./start-command";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER_BUILD = path.join(ROOT, "build", "index.js");
const COMPILED_SERVER = path.join(ROOT, "build", "server", "start.js");

// ---------------------------------------------------------------- options

const { values: args } = parseArgs({
  options: {
    products: { type: "string" },
    large: { type: "boolean", default: false },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    "data-dir": { type: "string" },
    build: { type: "boolean", default: false },
    profile: { type: "string" },
    port: { type: "string" },
    "db-only": { type: "boolean", default: false },
    only: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log(`npm run bench -- [--products N | --large] [--duration S] [--warmup S] [--connections C]
  [--data-dir DIR]  keep the benchmark database there (reused when it already holds N products)
  [--build]         run \`npm run build\` first even when a build exists
  [--profile DIR]   start the server with node --cpu-prof, profiles written to DIR
  [--db-only]       build the benchmark database (with --data-dir) and stop
  [--only TEXT]     measure only the endpoints whose label contains TEXT (and raw node:http)`);
  process.exit(0);
}

const PRODUCTS = args.products ? Number(args.products) : args.large ? 1_000_000 : 100_000;
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
if (!Number.isInteger(PRODUCTS) || PRODUCTS < 100) fail("--products must be a whole number of at least 100");
if (!(DURATION > 0) || !(WARMUP >= 0) || !(CONNECTIONS > 0)) fail("--duration, --warmup and --connections must be positive numbers");

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(1);
}

const say = (text: string) => console.log(text);

// ---------------------------------------------------------------- the catalogue generator


const BRANDS: readonly [string, string][] = [
  ["Nike", "耐克"], ["Adidas", "阿迪达斯"], ["New Balance", "新百伦"], ["Puma", "彪马"], ["Converse", "匡威"],
  ["Vans", "万斯"], ["Li-Ning", "李宁"], ["Anta", "安踏"], ["Uniqlo", "优衣库"], ["The North Face", "北面"],
  ["Arcteryx", "始祖鸟"], ["Patagonia", "巴塔哥尼亚"], ["Stussy", "斯图西"], ["Carhartt", "卡哈特"], ["Levi's", "李维斯"],
  ["Casio", "卡西欧"], ["Seiko", "精工"], ["Xiaomi", "小米"], ["Huawei", "华为"], ["Anker", "安克"],
  ["Coach", "蔻驰"], ["Longchamp", "珑骧"], ["Moncler", "盟可睐"], ["Canada Goose", "加拿大鹅"], ["Timberland", "添柏岚"],
  ["Dr. Martens", "马丁博士"], ["Asics", "亚瑟士"], ["Salomon", "萨洛蒙"], ["Onitsuka Tiger", "鬼塚虎"], ["Champion", "冠军"],
  ["Ralph Lauren", "拉夫劳伦"], ["Lacoste", "鳄鱼"], ["Fila", "斐乐"], ["Jordan", "乔丹"], ["Supreme", "苏博瑞"],
];

/** [Chinese, English, category index] */
const ITEMS: readonly [string, string, number][] = [
  ["连帽卫衣", "hoodie", 4], ["圆领卫衣", "crewneck sweatshirt", 4], ["半拉链卫衣", "half-zip sweatshirt", 4],
  ["羽绒服", "down jacket", 5], ["冲锋衣", "shell jacket", 5], ["夹克", "jacket", 5], ["风衣", "trench coat", 5], ["摇粒绒外套", "fleece jacket", 5],
  ["短袖T恤", "t-shirt", 6], ["长袖T恤", "long sleeve tee", 6], ["Polo衫", "polo shirt", 6], ["衬衫", "shirt", 6], ["毛衣", "sweater", 6],
  ["牛仔裤", "jeans", 7], ["工装裤", "cargo pants", 7], ["运动短裤", "shorts", 7], ["卫裤", "sweatpants", 7],
  ["运动鞋", "sneakers", 1], ["篮球鞋", "basketball shoes", 1], ["跑步鞋", "running shoes", 1], ["板鞋", "skate shoes", 1], ["帆布鞋", "canvas shoes", 1],
  ["马丁靴", "boots", 2], ["雪地靴", "snow boots", 2], ["切尔西靴", "chelsea boots", 2],
  ["双肩包", "backpack", 8], ["斜挎包", "crossbody bag", 8], ["托特包", "tote bag", 8], ["钱包", "wallet", 8],
  ["手表", "watch", 10], ["机械表", "automatic watch", 10], ["棒球帽", "baseball cap", 11], ["渔夫帽", "bucket hat", 11], ["毛线帽", "beanie", 11],
  ["项链", "necklace", 9], ["皮带", "belt", 9], ["墨镜", "sunglasses", 9], ["围巾", "scarf", 9],
  ["蓝牙耳机", "wireless earbuds", 12], ["充电宝", "power bank", 12], ["手机壳", "phone case", 12], ["智能手环", "smart band", 12],
];

const CATEGORIES: readonly [string, number | null][] = [
  ["鞋类 Shoes", null], ["运动鞋 Sneakers", 0], ["靴子 Boots", 0], ["服装 Clothing", null], ["卫衣 Hoodies", 3],
  ["外套 Jackets", 3], ["上衣 Tops", 3], ["裤子 Pants", 3], ["包袋 Bags", null], ["配饰 Accessories", null],
  ["手表 Watches", 9], ["帽子 Hats", 9], ["数码 Electronics", null],
];

const MODS_ZH = ["加绒", "宽松", "修身", "复古", "情侣款", "新款", "潮牌", "百搭", "秋冬", "夏季", "男女同款", "重磅", "高街", "日系", "美式", "", "", ""];
const MODS_EN = ["oversized", "vintage", "slim fit", "premium", "limited", "classic", "new season", "heavyweight", "", "", ""];
const COLOURS = ["黑色", "白色", "灰色", "藏青", "卡其", "酒红", "米白", "军绿", "Black", "White", "Grey", ""];
const FEATURES_ZH = ["面料柔软舒适", "做工精细，细节到位", "版型正，上身效果好", "支持七天无理由退换", "实物拍摄，质检图齐全", "工厂直发，价格实惠", "大码可选", "新品上市，限时优惠"];
const FEATURES_EN = ["Soft and comfortable fabric", "Fine stitching and details", "True to size", "QC photos available on request", "Ships from the factory", "Limited stock at this price", "Plus sizes available", "New arrival"];
const SHOP_PREFIX = ["潮流", "优选", "阿杰", "北街", "老顾客", "广州", "莆田", "义乌", "深圳", "上海", "杭州", "东莞", "Ace", "Top", "Kings", "Urban"];
const SHOP_SUFFIX = ["旗舰店", "工作室", "小店", "批发", "严选", "服饰", "鞋业", "数码", " Store", " Studio"];
const SIZES = ["S", "M", "L", "XL", "XXL", "EU 40", "EU 41", "EU 42", "EU 43", "黑色", "白色", "标准版", "Pro"];


/** Creates and fills the benchmark database; returns the seconds it took. */
async function buildDatabase(file: string, count: number): Promise<number> {
  const started = performance.now();
  const sqlite = openSqlite(file);
  const db = createKysely(sqlite);
  await migrateToLatest(db);
  // only for the bulk load (one writer, a file we can rebuild): bigger cache, fewer syncs
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");

  const rng = seededRandom(1_000_003);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
  const insertCategory = sqlite.prepare("INSERT INTO categories (name, description, parent_id, sort_order) VALUES (?, ?, ?, ?)");
  const insertProduct = sqlite.prepare(`INSERT INTO products
    (name, description, price_fen, category_id, images, platform, platform_item_id, original_url, shop_name, is_external, view_count)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertSku = sqlite.prepare("INSERT INTO product_skus (product_id, sku_name, price_fen, stock, position) VALUES (?, ?, ?, ?, ?)");
  const shops = Array.from({ length: 400 }, (_, n) => `${SHOP_PREFIX[n % SHOP_PREFIX.length]}${SHOP_SUFFIX[Math.floor(n / SHOP_PREFIX.length) % SHOP_SUFFIX.length]}${n >= 160 ? ` ${n}` : ""}`);

  let lastReport = performance.now();
  sqlite.transaction(() => {
    const categoryIds: number[] = [];
    CATEGORIES.forEach(([name, parent], n) => {
      const info = insertCategory.run(name, null, parent === null ? null : categoryIds[parent], n);
      categoryIds.push(Number(info.lastInsertRowid));
    });
    for (let i = 0; i < count; i++) {
      const [itemZh, itemEn, category] = pick(ITEMS);
      const branded = rng() < 0.7;
      const [brandEn, brandZh] = pick(BRANDS);
      const modZh = pick(MODS_ZH);
      const modEn = pick(MODS_EN);
      const colour = pick(COLOURS);
      const code = rng() < 0.25 ? ` ${String.fromCharCode(65 + Math.floor(rng() * 26))}${100 + Math.floor(rng() * 900)}` : "";
      const name = (
        branded
          ? `${brandEn} ${brandZh}${modZh}${itemZh}${code} ${modEn} ${itemEn} ${colour}`
          : `${modZh}${itemZh} ${modEn ? `${modEn} ` : ""}${itemEn}${code} ${colour}`
      )
        .replace(/\s+/g, " ")
        .trim();
      const description = `${modZh}${itemZh}，${pick(FEATURES_ZH)}。${pick(FEATURES_EN)}.`;
      const platform = PLATFORMS[Math.floor(rng() * 4)];
      // unique per platform, shaped like the real ones (weidian 10 digits, others 12)
      const itemId = String((platform === "weidian" ? 7_000_000_000 : 600_000_000_000) + i);
      const external = rng() < 0.45;
      const images = JSON.stringify(
        Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, n) => `/uploads/products/2026-11/bench-${i.toString(16).padStart(8, "0")}-${n}.webp`),
      );
      const price = Math.round((19 + rng() * rng() * 2500) * 100);
      const views = rng() < 0.3 ? Math.floor(rng() * rng() * 20_000) : 0;
      const info = insertProduct.run(
        name,
        description,
        price,
        categoryIds[category],
        images,
        platform,
        itemId,
        marketplaceUrl(platform, itemId),
        external ? pick(shops) : null,
        external ? 1 : 0,
        views,
      );
      if (rng() < 0.3) {
        const productId = Number(info.lastInsertRowid);
        const skus = 1 + Math.floor(rng() * 4);
        const start = Math.floor(rng() * (SIZES.length - skus));
        for (let s = 0; s < skus; s++) insertSku.run(productId, SIZES[start + s], price + s * 500, Math.floor(rng() * 500), s);
      }
      if (i % 10_000 === 9_999 && performance.now() - lastReport > 5_000) {
        lastReport = performance.now();
        say(`  … ${(i + 1).toLocaleString("en")} products (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
  })();
  // merge the full-text b-trees the bulk load left behind (what automerge reaches over time)
  sqlite.exec("INSERT INTO products_fts (products_fts) VALUES ('optimize')");
  sqlite.exec("INSERT INTO products_grams (products_grams) VALUES ('optimize')");
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  await db.destroy();
  return (performance.now() - started) / 1000;
}

function productCountOf(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const sqlite = openSqlite(file);
  try {
    return (sqlite.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------- the blog post

export const BENCH_POST_SLUG = "bench-long-read";

/**
 * A published post of 1,500 words (30 paragraphs of 50, with headings, a list and a
 * quote), with tags and ten comments: the post page the targets speak of. Added once.
 */
function ensureBenchPost(file: string): void {
  const sqlite = openSqlite(file);
  try {
    if (sqlite.prepare("SELECT id FROM blog_posts WHERE slug = ?").get(BENCH_POST_SLUG)) return;
    const rng = seededRandom(1500);
    const WORDS = ["quality", "control", "photos", "stitching", "seller", "agent", "parcel", "sizes", "weidian", "taobao", "measure", "fabric", "logo", "warehouse", "shipping", "return", "check", "price", "batch", "review"];
    const paragraph = () => Array.from({ length: 50 }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(" ");
    const blocks: string[] = [];
    for (let n = 0; n < 30; n++) {
      if (n % 6 === 0) blocks.push(`<h2>Part ${n / 6 + 1}: what to check</h2>`);
      if (n === 13) blocks.push("<ul><li><p>Stitching</p></li><li><p>Measurements</p></li><li><p>Logos</p></li></ul>");
      if (n === 21) blocks.push("<blockquote><p>Ask the agent for measurements before you approve shipping.</p></blockquote>");
      blocks.push(`<p>${paragraph()}</p>`);
    }
    const content = blocks.join("");
    const words = countWords(htmlToText(content));
    const categoryId = Number(sqlite.prepare("INSERT INTO blog_categories (name, slug) VALUES ('Bench guides', 'bench-guides') ON CONFLICT (slug) DO UPDATE SET name = excluded.name RETURNING id").pluck().get());
    const postId = Number(
      sqlite
        .prepare(`INSERT INTO blog_posts (title, slug, excerpt, content, content_text, category_id, status, reading_time, featured_image, published_at)
          VALUES (?, ?, ?, ?, ?, ?, 'published', ?, ?, ?) RETURNING id`)
        .pluck()
        .get(
          "The long QC photo guide: 1,500 words on what to check",
          BENCH_POST_SLUG,
          "Everything to look for in warehouse photos before you approve a parcel.",
          content,
          htmlToText(content),
          categoryId,
          readingTime(content),
          "/uploads/blog/2026-11/bench-cover.webp",
          "2026-11-01T09:00:00.000Z",
        ),
    );
    for (const name of ["QC photos", "Guides", "Bench"]) {
      const tagId = Number(sqlite.prepare("INSERT INTO blog_tags (name, slug) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET name = excluded.name RETURNING id").pluck().get(name, name.toLowerCase().replace(/\s+/g, "-")));
      sqlite.prepare("INSERT INTO blog_post_tags (post_id, tag_id) VALUES (?, ?)").run(postId, tagId);
    }
    const userId = Number(sqlite.prepare("INSERT INTO users (username, email, email_verified) VALUES ('bench_reader', 'bench-reader@example.invalid', 1) ON CONFLICT DO UPDATE SET email_verified = 1 RETURNING id").pluck().get());
    for (let n = 0; n < 10; n++) {
      sqlite.prepare("INSERT INTO blog_comments (post_id, user_id, content, status) VALUES (?, ?, ?, 'approved')").run(postId, userId, `<p>Comment ${n + 1}: ${paragraph().slice(0, 160)}</p>`);
    }
    say(`database: blog post /blog/${BENCH_POST_SLUG} added (${words} words, 10 comments)`);
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------- processes

async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** The raw baseline: node:http answering "hello world", in its own process like the app. */
function startRawServer(port: number): ChildProcess {
  const code = `require("node:http").createServer((req, res) => { res.writeHead(200, { "Content-Type": "text/plain" }); res.end("hello world"); }).listen(${port}, "127.0.0.1");`;
  return spawn(process.execPath, ["-e", code], { stdio: "ignore" });
}

// ---------------------------------------------------------------- measuring

type Row = {
  label: string;
  url: string;
  status: number | null;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rss: number | null;
  bytesPerResponse: number;
};

const BROWSER_HEADERS = { "accept-encoding": "gzip, deflate, br", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) qc-bench" };

/**
 * With `rotate`, each request asks for the next of those paths with a query parameter of
 * its own added (`&n=1`, `&n=2`, ...), so no two requests share an address and nothing
 * the server keeps per address can answer them.
 */
function cannon(url: string, seconds: number, rotate?: string[]): Promise<autocannon.Result> {
  let sent = 0;
  const requests = rotate?.length
    ? [{ setupRequest: (request: { path: string }) => ({ ...request, path: `${rotate[sent % rotate.length]}&n=${++sent}` }) }]
    : undefined;
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: BROWSER_HEADERS, requests } as autocannon.Options);
}

async function measure(label: string, url: string, serverPid: number | undefined, rotate?: string[]): Promise<Row> {
  let status: number | null = null;
  if (args.only && !label.startsWith("raw") && !label.toLowerCase().includes(args.only.toLowerCase())) {
    return { label, url, status: null, reqPerSec: 0, p50: 0, p99: 0, non2xx: 0, errors: 0, rss: null, bytesPerResponse: 0 };
  }
  try {
    const response = await fetch(url, { headers: BROWSER_HEADERS, redirect: "manual" });
    status = response.status;
    await response.arrayBuffer();
  } catch {
    status = null;
  }
  const empty: Row = { label, url, status, reqPerSec: 0, p50: 0, p99: 0, non2xx: 0, errors: 0, rss: rssMb(serverPid), bytesPerResponse: 0 };
  if (status !== 200) {
    say(`  ${label}: ${url} answered ${status ?? "nothing"}: skipped`);
    return empty;
  }
  if (WARMUP > 0) await cannon(url, WARMUP, rotate);
  const result = await cannon(url, DURATION, rotate);
  const row: Row = {
    ...empty,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rss: rssMb(serverPid),
    bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
  };
  say(
    `  ${label}: ${row.reqPerSec.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms` +
      (row.non2xx || row.errors ? `, ${row.non2xx} non-2xx, ${row.errors} errors` : "") +
      (row.rss ? `, RSS ${row.rss.toFixed(0)} MB` : ""),
  );
  return row;
}

type Weight = { label: string; url: string; htmlGz: number; html: number; jsGz: number; js: number; scripts: number } | null;

/** The page's HTML and the JavaScript it loads (module scripts and modulepreload links under /build), gzipped. */
async function pageWeight(label: string, url: string): Promise<Weight> {
  const response = await fetch(url, { headers: { "user-agent": BROWSER_HEADERS["user-agent"] } }).catch(() => null);
  if (!response?.ok) return null;
  const html = Buffer.from(await response.arrayBuffer());
  const text = html.toString("utf8");
  const origin = new URL(url).origin;
  const scripts = new Set<string>();
  for (const match of text.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) scripts.add(match[1]);
  for (const match of text.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(match[0])?.[1];
    if (href) scripts.add(href);
  }
  // the inline module script imports the entry and the matched routes' modules by URL; the
  // manifest it also holds names other routes' modules, which the browser does not load
  for (const match of text.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const imported of match[1].matchAll(/\bimport\b[^"'\n]*["'](\/build\/[^"'\s]+\.js)["']|\bimport\(\s*["'](\/build\/[^"'\s]+\.js)["']\s*\)/g)) {
      scripts.add(imported[1] ?? imported[2]);
    }
  }
  let js = 0;
  let jsGz = 0;
  let counted = 0;
  for (const src of scripts) {
    const absolute = new URL(src.replace(/&amp;/g, "&"), origin);
    if (absolute.origin !== origin || !absolute.pathname.startsWith("/build/")) continue;
    const body = await fetch(absolute).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null);
    if (!body) continue;
    const buffer = Buffer.from(body);
    js += buffer.length;
    jsGz += zlib.gzipSync(buffer, { level: 9 }).length;
    counted++;
  }
  return { label, url, html: html.length, htmlGz: zlib.gzipSync(html, { level: 9 }).length, js, jsGz, scripts: counted };
}

/** Follows redirects by hand: the address a product page settles on. */
async function canonicalUrl(url: string): Promise<{ url: string; status: number | null; hops: string[] }> {
  const hops: string[] = [];
  let current = url;
  for (let n = 0; n < 5; n++) {
    const response = await fetch(current, { redirect: "manual", headers: { "user-agent": BROWSER_HEADERS["user-agent"] } }).catch(() => null);
    if (!response) return { url: current, status: null, hops };
    await response.arrayBuffer();
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      current = new URL(location, current).href;
      hops.push(`${response.status} → ${new URL(current).pathname}`);
      continue;
    }
    return { url: current, status: response.status, hops };
  }
  return { url: current, status: null, hops };
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Self time per function (microseconds) and the busy total (idle excluded). */
function selfTimes(profile: CpuProfile): { self: Map<string, number>; busy: number } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, n) => {
    const node = byNode.get(id);
    const micros = profile.timeDeltas[n] ?? 0;
    if (!node || node.callFrame.functionName === "(idle)") return;
    busy += micros;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, "").replace(ROOT + "/", "")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + micros);
  });
  return { self, busy };
}

/**
 * The functions with the most self time in the busiest CPU profile this run wrote to
 * `dir` (node writes one per thread).
 */
function summariseProfiles(dir: string, since: number): void {
  const profiles = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(dir, name))
    .filter((file) => fs.statSync(file).mtimeMs >= since)
    .map((file) => ({ file, ...selfTimes(JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile) }))
    .sort((a, b) => b.busy - a.busy);
  if (!profiles.length) {
    say(`\nno CPU profile found in ${dir}`);
    return;
  }
  const { file, self, busy } = profiles[0];
  say(`\nCPU profile ${file}: top self time of ${(busy / 1e6).toFixed(1)} s busy (idle excluded)`);
  for (const [key, micros] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    say(`  ${lpad(((100 * micros) / busy).toFixed(1), 5)} %  ${key}`);
  }
}

// ---------------------------------------------------------------- main

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const pad = (text: string, width: number) => (text.length >= width ? text : text + " ".repeat(width - text.length));
const lpad = (text: string, width: number) => (text.length >= width ? text : " ".repeat(width - text.length) + text);

say(`bench: ${PRODUCTS.toLocaleString("en")} products, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per endpoint`);
const runStarted = Date.now();
const loadText = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");
say(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version}, load average ${loadText()}`);
if (os.loadavg()[0] > 0.5 * os.cpus().length) say("machine: WARNING other work is running (load average above half the cores): the figures will be low");

// 1. the database
const dataDir = args["data-dir"] ? path.resolve(args["data-dir"]) : fs.mkdtempSync(path.join(os.tmpdir(), "qc-bench-"));
const keepData = Boolean(args["data-dir"]);
const dbFile = path.join(dataDir, "app.db");
fs.mkdirSync(dataDir, { recursive: true });
const existing = productCountOf(dbFile);
if (existing === PRODUCTS) {
  say(`database: reusing ${dbFile} (${existing.toLocaleString("en")} products)`);
} else {
  if (existing) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(dbFile + suffix, { force: true });
  say(`database: building ${dbFile} …`);
  const seconds = await buildDatabase(dbFile, PRODUCTS);
  const size = fs.statSync(dbFile).size;
  say(`database: ${PRODUCTS.toLocaleString("en")} products in ${seconds.toFixed(1)} s (${(PRODUCTS / seconds).toFixed(0)} rows/s), file ${(size / 2 ** 20).toFixed(0)} MB`);
}

ensureBenchPost(dbFile);

if (args["db-only"]) {
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// 2. the build and the server
if (args.build || !fs.existsSync(SERVER_BUILD) || !fs.existsSync(COMPILED_SERVER)) {
  say("build: running `npm run build` …");
  const build = () => spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, VITE_CJS_IGNORE_WARNING: "true" } }).status;
  if (build() !== 0 && build() !== 0) fail("npm run build failed");
} else {
  const built = Math.min(fs.statSync(SERVER_BUILD).mtimeMs, fs.statSync(COMPILED_SERVER).mtimeMs);
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? newer(full) : fs.statSync(full).mtimeMs > built;
    });
  if (["app", "db", "scripts"].some((dir) => newer(path.join(ROOT, dir)))) {
    say("build: WARNING the code has changed since the last build; pass --build to measure the current code");
  }
}

const appPort = args.port ? Number(args.port) : await freePort();
const rawPort = await freePort();
const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(appPort),
  HOST: "127.0.0.1",
  SEED_DEMO: "0",
  LOG_LEVEL: "warn",
  ADMIN_EMAIL: "bench-admin@example.com",
  ADMIN_PASSWORD: "bench-admin-password",
};
for (const name of ["NODE_ENV", "DATABASE_PATH", "UPLOADS_DIR", "PUBLIC_URL", "TRUST_PROXY"]) delete serverEnv[name];
const nodeArgs = startArgs().slice(0, -1);
if (args.profile) {
  fs.mkdirSync(path.resolve(args.profile), { recursive: true });
  nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${path.resolve(args.profile)}`);
}
say(`server: node ${[...nodeArgs, "scripts/start.mjs"].join(" ")} on port ${appPort} (as npm start)`);
const app = spawn(process.execPath, [...nodeArgs, "scripts/start.mjs"], { cwd: ROOT, env: serverEnv, stdio: ["ignore", "inherit", "inherit"] });
const raw = startRawServer(rawPort);
const cleanup = async () => {
  await Promise.all([stop(app), stop(raw)]);
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
};
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));
// whatever happens to this process, the servers it started go with it
process.once("exit", () => {
  for (const child of [app, raw]) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

const base = `http://127.0.0.1:${appPort}`;
try {
  await waitFor(`${base}/healthz`, app, 120);
  await waitFor(`http://127.0.0.1:${rawPort}/`, raw, 20);
} catch (error) {
  await cleanup();
  fail(`the server did not start: ${(error as Error).message}`);
}
say(`server: ready, RSS ${rssMb(app.pid)?.toFixed(0)} MB`);

// a product in the middle of the catalogue that has SKUs
const probe = openSqlite(dbFile);
const productId =
  (probe.prepare("SELECT product_id AS id FROM product_skus WHERE product_id >= ? ORDER BY product_id LIMIT 1").get(Math.floor(PRODUCTS / 2)) as { id: number } | undefined)?.id ??
  Math.floor(PRODUCTS / 2);
probe.close();

const product = await canonicalUrl(`${base}/product/${productId}`);
say(`product page: /product/${productId} ${product.hops.length ? product.hops.join(", ") : "(no redirect)"}, answers ${product.status ?? "nothing"}`);

const SEARCH_TERMS: [string, string][] = [
  ["search API, English word", "hoodie"],
  ["search API, 3+ Chinese chars", "连帽卫衣"],
  ["search API, 2 Chinese chars", "耐克"],
  ["search API, no match", "zzqxjv"],
];

const rows: Row[] = [];
say(`measuring (load average ${loadText()}):`);
rows.push(await measure("raw node:http hello world", `http://127.0.0.1:${rawPort}/`, raw.pid));
const searchPath = (term: string) => `/api/products/search?q=${encodeURIComponent(term)}`;
for (const [label, term] of SEARCH_TERMS) rows.push(await measure(`${label} (${term})`, `${base}${searchPath(term)}`, app.pid));
// the server keeps search answers for visitors (per address): this row measures the search itself
rows.push(
  await measure("search API, each address new (the 4 terms)", `${base}${searchPath("hoodie")}`, app.pid, SEARCH_TERMS.map(([, term]) => searchPath(term))),
);
rows.push(await measure("product API /api/products/:id", `${base}/api/products/${productId}`, app.pid));
rows.push(await measure("search page /search?q=hoodie", `${base}/search?q=hoodie`, app.pid));
rows.push(await measure(`product page ${new URL(product.url).pathname}`, product.url, app.pid));
const blogPostUrl = `${base}/blog/${BENCH_POST_SLUG}`;
rows.push(await measure(`blog post page /blog/${BENCH_POST_SLUG}`, blogPostUrl, app.pid));

const weights: Weight[] = [];
weights.push(product.status === 200 ? await pageWeight("product page", product.url) : null);
weights.push(await pageWeight("search page", `${base}/search?q=hoodie`));
weights.push(await pageWeight("blog post", blogPostUrl));
const idleRss = rssMb(app.pid);

const loadAfter = loadText();
await cleanup();

// ---------------------------------------------------------------- report

const rawRow = rows[0];
const ratio = (row: Row) => (rawRow.reqPerSec ? row.reqPerSec / rawRow.reqPerSec : 0);
say("");
say(`results (${PRODUCTS.toLocaleString("en")} products, ${CONNECTIONS} connections, ${DURATION} s each after a ${WARMUP} s warm-up; the client asks for gzip like a browser; load average at the end ${loadAfter})`);
const header = `${pad("endpoint", 46)} ${lpad("status", 6)} ${lpad("req/s", 8)} ${lpad("p50 ms", 7)} ${lpad("p99 ms", 7)} ${lpad("× raw", 6)} ${lpad("RSS MB", 7)} ${lpad("bytes/resp", 10)}`;
say(header);
say("-".repeat(header.length));
for (const row of rows) {
  const ran = row.reqPerSec > 0;
  say(
    `${pad(row.label, 46)} ${lpad(String(row.status ?? "-"), 6)} ${lpad(ran ? row.reqPerSec.toFixed(0) : "-", 8)} ${lpad(ran ? String(row.p50) : "-", 7)} ${lpad(ran ? String(row.p99) : "-", 7)} ` +
      `${lpad(ran ? ratio(row).toFixed(3) : "-", 6)} ${lpad(row.rss ? row.rss.toFixed(0) : "-", 7)} ${lpad(ran ? row.bytesPerResponse.toFixed(0) : "-", 10)}` +
      (row.non2xx || row.errors ? `  (${row.non2xx} non-2xx, ${row.errors} errors)` : ""),
  );
}
say("");
say("page weight (gzip level 9)");
for (const weight of weights) {
  if (!weight) continue;
  say(`  ${pad(weight.label, 14)} HTML ${kb(weight.htmlGz)} gz (${kb(weight.html)}), JS ${kb(weight.jsGz)} gz (${kb(weight.js)}, ${weight.scripts} files)  ${new URL(weight.url).pathname}`);
}

const missing = rows.filter((row) => row.status !== 200 && !args.only).map((row) => `${row.label} (${row.status ?? "no answer"})`);
const large = PRODUCTS >= 1_000_000;
const searchRows = rows.filter((row) => row.label.startsWith("search API"));
const productPageRow = rows.find((row) => row.label.startsWith("product page"))!;
const productApiRow = rows.find((row) => row.label.startsWith("product API"))!;
const maxRss = Math.max(...rows.slice(1).map((row) => row.rss ?? 0), idleRss ?? 0);
const productWeight = weights[0];
const blogWeight = weights[2];
const p99Limit = large ? 50 : 20;
type Target = { name: string; met: boolean | null; detail: string };
const targets: Target[] = [
  {
    name: "product page ≥ 1/10 of raw node:http req/s",
    met: productPageRow.reqPerSec ? ratio(productPageRow) >= 0.1 : null,
    detail: productPageRow.reqPerSec ? `${ratio(productPageRow).toFixed(3)} × raw` : "not measured",
  },
  {
    name: "/api/products/:id ≥ 1/4 of raw node:http req/s",
    met: productApiRow.reqPerSec ? ratio(productApiRow) >= 0.25 : null,
    detail: productApiRow.reqPerSec ? `${ratio(productApiRow).toFixed(3)} × raw` : "not measured",
  },
  {
    name: `search API p99 ≤ ${p99Limit} ms (${large ? "1M" : "100k"} products)`,
    met: searchRows.some((row) => row.reqPerSec) ? searchRows.every((row) => row.reqPerSec && row.p99 <= p99Limit) : null,
    detail: searchRows.map((row) => (row.reqPerSec ? `${row.p99} ms` : "-")).join(", "),
  },
  {
    name: "product page HTML ≤ 30 KB gzipped",
    met: productWeight ? productWeight.htmlGz <= 30 * 1024 : null,
    detail: productWeight ? kb(productWeight.htmlGz) : "not measured",
  },
  {
    name: "product page JS ≤ 100 KB gzipped",
    met: productWeight ? productWeight.jsGz <= 100 * 1024 : null,
    detail: productWeight ? kb(productWeight.jsGz) : "not measured",
  },
  {
    name: "blog post page (1,500 words) HTML ≤ 30 KB gzipped",
    met: blogWeight ? blogWeight.htmlGz <= 30 * 1024 : null,
    detail: blogWeight ? kb(blogWeight.htmlGz) : "not measured",
  },
  {
    name: "blog post page JS ≤ 100 KB gzipped",
    met: blogWeight ? blogWeight.jsGz <= 100 * 1024 : null,
    detail: blogWeight ? kb(blogWeight.jsGz) : "not measured",
  },
  { name: "server RSS ≤ 250 MB", met: maxRss ? maxRss <= 250 : null, detail: maxRss ? `${maxRss.toFixed(0)} MB at most` : "not measured" },
];
say("");
say("targets");
for (const target of targets) {
  const mark = target.met === null ? "NOT MEASURED" : target.met ? "met" : "MISSED";
  say(`  ${pad(target.name, 50)} ${pad(mark, 12)} ${target.detail}`);
}
if (missing.length) say(`\nendpoints that did not answer 200: ${missing.join("; ")}`);
if (keepData) say(`\ndatabase kept in ${dataDir}`);
if (args.profile) summariseProfiles(path.resolve(args.profile), runStarted);
process.exit(0);
