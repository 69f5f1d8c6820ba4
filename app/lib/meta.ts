/** Page <title>/<meta> built from the site settings the root loader provides. */
import type { MetaDescriptor } from "@remix-run/node";
import type { SiteInfo } from "~/schemas/site-settings";

type MatchLike = { id: string; data?: unknown };

/** An address made absolute on the site's base address (outside addresses stay as they are). */
export function absoluteUrl(base: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${base.replace(/\/+$/, "")}${path.startsWith("/") ? "" : "/"}${path}`;
}

/**
 * A list page's canonical link: its address on the site's base address, with ?page= past
 * the first page (each page lists other posts), without any other parameter.
 */
export function listCanonical(matches: MatchLike[], path: string, page: number): MetaDescriptor {
  const base = rootSiteInfo(matches)?.site_url ?? "";
  return { tagName: "link", rel: "canonical", href: absoluteUrl(base, page > 1 ? `${path}?page=${page}` : path) };
}

export function rootSiteInfo(matches: MatchLike[]): SiteInfo | undefined {
  const root = matches.find((match) => match.id === "root")?.data as { siteInfo?: SiteInfo } | undefined;
  return root?.siteInfo;
}

/**
 * Meta tags for a page: "<page title> | <site name>" (or the site title on the home page),
 * the page's description or the site's, and the site's keywords.
 */
export function pageMeta(matches: MatchLike[], page: { title?: string; description?: string; noindex?: boolean } = {}): MetaDescriptor[] {
  const site = rootSiteInfo(matches);
  const siteName = site?.site_name ?? "";
  const title = page.title ? (siteName ? `${page.title} | ${siteName}` : page.title) : (site?.site_title ?? siteName);
  const description = page.description ?? site?.site_description ?? "";
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:site_name", content: siteName },
  ];
  if (site?.site_keywords) tags.push({ name: "keywords", content: site.site_keywords });
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
