/**
 * The one sitemap service. Each domain registers a source that lists its public URLs
 * (catalogue and blog); /sitemap.xml and the admin
 * "generate sitemap" tool both call buildSitemap().
 */
import { blogSitemapSources } from "./blog.server";
import { catalogueSitemapSources } from "./catalogue.server";
import { loadSettings, siteBaseUrl } from "./site-settings.server";

export type SitemapEntry = {
  /** Path starting with "/" (joined to the site's base URL) */
  path: string;
  lastmod?: string;
  changefreq?: "always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never";
  priority?: number;
};

export type SitemapSource = { name: string; entries: () => Promise<SitemapEntry[]> | SitemapEntry[] };

const staticPages: SitemapSource = {
  name: "static",
  entries: () => [
    { path: "/", changefreq: "daily", priority: 1.0 },
    { path: "/search", changefreq: "daily", priority: 0.6 },
  ],
};

const sources: SitemapSource[] = [staticPages, ...catalogueSitemapSources, ...blogSitemapSources];

/** Adds a source of URLs (called once per domain at module load). */
export function registerSitemapSource(source: SitemapSource): void {
  if (!sources.some((s) => s.name === source.name)) sources.push(source);
}

const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

export type Sitemap = { xml: string; urlCount: number; generatedAt: string };

export async function buildSitemap(): Promise<Sitemap> {
  const base = siteBaseUrl(await loadSettings());
  const entries = (await Promise.all(sources.map((source) => source.entries()))).flat();
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const entry of entries) {
    const loc = base + entry.path;
    if (seen.has(loc)) continue;
    seen.add(loc);
    const parts = [`    <loc>${escapeXml(loc)}</loc>`];
    if (entry.lastmod) parts.push(`    <lastmod>${escapeXml(entry.lastmod)}</lastmod>`);
    if (entry.changefreq) parts.push(`    <changefreq>${entry.changefreq}</changefreq>`);
    if (entry.priority !== undefined) parts.push(`    <priority>${entry.priority.toFixed(1)}</priority>`);
    urls.push(`  <url>\n${parts.join("\n")}\n  </url>`);
  }
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.join("\n") +
    (urls.length ? "\n" : "") +
    "</urlset>\n";
  return { xml, urlCount: urls.length, generatedAt: new Date().toISOString() };
}
