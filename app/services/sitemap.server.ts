/**
 * The one sitemap service. Each domain registers what it lists: pages (static, catalogue
 * categories, the blog) and the products, which come in blocks of product ids so that a
 * catalogue of any size is listed whole. /sitemap.xml, /sitemaps/*.xml and the admin
 * "generate sitemap" tool all read it.
 *
 * The sitemaps protocol allows 50,000 URLs and 50 MB per file. While everything fits in
 * one file, /sitemap.xml is that file (a urlset). Past that, /sitemap.xml is a sitemap
 * index naming /sitemaps/pages.xml and one /sitemaps/products-N.xml per block of 50,000
 * product ids that holds listed products (a product stays in the same file for life).
 *
 * Files are built once per version of what they show (the content version, the blog's
 * version and SQLite's data_version) and kept: a crawler asking again costs nothing, and
 * requests arriving together share one build (docs/decisions/023-sitemap.md).
 */
import zlib from "node:zlib";
import { blogVersion, contentVersion } from "~/lib/content-version.server";
import { dataVersion } from "~/lib/db.server";
import { escapeXml } from "~/lib/text";
import { blogSitemapSources } from "./blog/sitemap.server";
import { catalogueSitemapProducts, catalogueSitemapSources } from "./catalogue/sitemap.server";
import { loadSettings, siteBaseUrl } from "./site-settings.server";

export type SitemapEntry = {
  /** Path starting with "/" (joined to the site's base URL) */
  path: string;
  lastmod?: string;
  changefreq?: "always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never";
  priority?: number;
};

export type SitemapSource = { name: string; entries: () => Promise<SitemapEntry[]> | SitemapEntry[] };

/** The products: listed in blocks of ids (block n: ids n·size+1 … (n+1)·size). */
export type SitemapProducts = {
  blocks: (size: number) => Promise<Array<{ block: number; count: number }>>;
  entries: (block: number, size: number) => Promise<SitemapEntry[]>;
};

/** The protocol's limits per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

const staticPages: SitemapSource = {
  name: "static",
  entries: () => [
    { path: "/", changefreq: "daily", priority: 1.0 },
    { path: "/search", changefreq: "daily", priority: 0.6 },
  ],
};

const sources: SitemapSource[] = [staticPages, ...catalogueSitemapSources, ...blogSitemapSources];

/** Adds a source of page URLs (called once per domain at module load). */
export function registerSitemapSource(source: SitemapSource): void {
  if (!sources.some((s) => s.name === source.name)) sources.push(source);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function urlElement(base: string, entry: SitemapEntry): string {
  const parts = [`    <loc>${escapeXml(base + entry.path)}</loc>`];
  if (entry.lastmod) parts.push(`    <lastmod>${escapeXml(entry.lastmod)}</lastmod>`);
  if (entry.changefreq) parts.push(`    <changefreq>${entry.changefreq}</changefreq>`);
  if (entry.priority !== undefined) parts.push(`    <priority>${entry.priority.toFixed(1)}</priority>`);
  return `  <url>\n${parts.join("\n")}\n  </url>`;
}

function urlset(base: string, entries: SitemapEntry[]): string {
  const urls = entries.map((entry) => urlElement(base, entry));
  return `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}${urls.length ? "\n" : ""}</urlset>\n`;
}

/** A built file: its XML (and gzip, made when first asked), URL count and when it was made. */
export type SitemapFile = { name: string; xml: Buffer; gzip: Buffer | null; urlCount: number; generatedAt: string; etag: string };

type Plan = { base: string; pages: SitemapEntry[]; blocks: Array<{ block: number; count: number }>; single: boolean };

type Built = { version: string; plan: Promise<Plan>; files: Map<string, Promise<SitemapFile | null>>; bytes: number };

declare global {
  var __sitemap: Built | undefined;
}

/** What the files show: the content (settings and site url included), the blog and other processes' writes. */
const currentVersion = () => `${contentVersion()}.${blogVersion()}.${dataVersion()}`;

/** Kept files beyond this many bytes are made again when asked (the plan is always kept). */
const KEPT_MAX_BYTES = 64 * 1024 * 1024;

function current(): Built {
  const version = currentVersion();
  let built = globalThis.__sitemap;
  if (!built || built.version !== version) {
    built = { version, plan: makePlan(), files: new Map(), bytes: 0 };
    built.plan.catch(() => {
      if (globalThis.__sitemap === built) globalThis.__sitemap = undefined;
    });
    globalThis.__sitemap = built;
  }
  return built;
}

async function makePlan(): Promise<Plan> {
  const [settings, pages, blocks] = await Promise.all([
    loadSettings(),
    Promise.all(sources.map((source) => source.entries())).then((lists) => dedupe(lists.flat())),
    catalogueSitemapProducts.blocks(SITEMAP_MAX_URLS),
  ]);
  const products = blocks.reduce((sum, block) => sum + block.count, 0);
  return { base: siteBaseUrl(settings), pages, blocks, single: pages.length + products <= SITEMAP_MAX_URLS };
}

function dedupe(entries: SitemapEntry[]): SitemapEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.path) && Boolean(seen.add(entry.path)));
}

/** The file names the index lists (also the names /sitemaps/:file serves). */
const pagesFile = "pages.xml";
const productsFile = (block: number) => `products-${block + 1}.xml`;

async function buildFile(name: string, plan: Plan, version: string): Promise<SitemapFile | null> {
  let xml: string;
  let urlCount: number;
  if (name === "sitemap.xml" && plan.single) {
    const products = (
      await Promise.all(plan.blocks.map((block) => catalogueSitemapProducts.entries(block.block, SITEMAP_MAX_URLS)))
    ).flat();
    const entries = dedupe([...plan.pages, ...products]);
    xml = urlset(plan.base, entries);
    urlCount = entries.length;
  } else if (name === "sitemap.xml") {
    const files = [pagesFile, ...plan.blocks.map((block) => productsFile(block.block))];
    const items = files.map((file) => `  <sitemap>\n    <loc>${escapeXml(`${plan.base}/sitemaps/${file}`)}</loc>\n  </sitemap>`);
    xml = `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
    urlCount = 0;
  } else if (name === pagesFile && !plan.single) {
    xml = urlset(plan.base, plan.pages);
    urlCount = plan.pages.length;
  } else {
    const block = /^products-(\d{1,7})\.xml$/.exec(name);
    const known = block && !plan.single ? plan.blocks.find((b) => b.block === Number(block[1]) - 1) : undefined;
    if (!known) return null;
    const entries = await catalogueSitemapProducts.entries(known.block, SITEMAP_MAX_URLS);
    xml = urlset(plan.base, entries);
    urlCount = entries.length;
  }
  const bytes = Buffer.from(xml);
  return { name, xml: bytes, gzip: null, urlCount, generatedAt: new Date().toISOString(), etag: `"${version}-${name}-${bytes.length}"` };
}

/**
 * A sitemap file by name ("sitemap.xml", or a file of /sitemaps/: "pages.xml",
 * "products-N.xml"), built once per version; null when there is no such file.
 */
export function sitemapFile(name: string): Promise<SitemapFile | null> {
  const built = current();
  let file = built.files.get(name);
  if (!file) {
    file = built.plan.then((plan) => buildFile(name, plan, built.version));
    built.files.set(name, file);
    file.then(
      (made) => {
        if (!made) built.files.delete(name);
        // past the budget a file is made again when asked rather than kept
        else if (built.bytes + made.xml.length > KEPT_MAX_BYTES) built.files.delete(name);
        else built.bytes += made.xml.length;
      },
      () => built.files.delete(name),
    );
  }
  return file;
}

/** The file's gzip (made once, when first asked). */
export function sitemapGzip(file: SitemapFile): Buffer {
  return (file.gzip ??= zlib.gzipSync(file.xml, { level: 6 }));
}

export type Sitemap = { urlCount: number; files: number; bytes: number; generatedAt: string };

/** Builds every file (the admin tool): URLs listed in all, files, their bytes. */
export async function buildSitemap(): Promise<Sitemap> {
  const plan = await current().plan;
  const names = plan.single ? ["sitemap.xml"] : ["sitemap.xml", pagesFile, ...plan.blocks.map((block) => productsFile(block.block))];
  const files = await Promise.all(names.map((name) => sitemapFile(name)));
  const made = files.filter((file): file is SitemapFile => file !== null);
  return {
    urlCount: made.reduce((sum, file) => sum + file.urlCount, 0),
    files: made.length,
    bytes: made.reduce((sum, file) => sum + file.xml.length, 0),
    generatedAt: made[0]?.generatedAt ?? new Date().toISOString(),
  };
}

/** Drops what is kept (tests). */
export function forgetSitemap(): void {
  globalThis.__sitemap = undefined;
}

/** Whether Accept-Encoding takes gzip (q above 0, by name or by *). */
function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("Accept-Encoding") ?? "";
  let star = false;
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (coding === "gzip") return accepted;
    if (coding === "*") star = accepted;
  }
  return star;
}

/**
 * A sitemap file's answer: 404 when there is none, 304 when the client's copy is current,
 * else the XML; gzipped once and kept when the client takes gzip (an 8 MB file coded per
 * request would cost more than building it).
 */
export async function sitemapResponse(request: Request, name: string): Promise<Response> {
  const file = await sitemapFile(name);
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const headers = new Headers({
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": "public, max-age=300",
    ETag: file.etag,
    "Last-Modified": new Date(file.generatedAt).toUTCString(),
    Vary: "Accept-Encoding",
  });
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  let body = file.xml;
  if (acceptsGzip(request)) {
    body = sitemapGzip(file);
    headers.set("Content-Encoding", "gzip");
  }
  headers.set("Content-Length", String(body.length));
  return new Response(request.method === "HEAD" ? null : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length), {
    status: 200,
    headers,
  });
}
