/** Page <title>/<meta> built from the site settings the root loader provides. */
import type { MetaDescriptor } from "@remix-run/node";
import type { SiteInfo } from "~/schemas/site-settings";
import { translatorFor } from "~/i18n/i18n";
import { STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";

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

/** The page's language, as the root loader chose it. */
export function rootLanguage(matches: MatchLike[]): Language {
  const root = matches.find((match) => match.id === "root")?.data as { language?: Language } | undefined;
  return root?.language ?? STOREFRONT_LANGUAGE;
}

export function rootSiteInfo(matches: MatchLike[]): SiteInfo | undefined {
  const root = matches.find((match) => match.id === "root")?.data as { siteInfo?: SiteInfo } | undefined;
  return root?.siteInfo;
}

/**
 * Meta tags for a page: "<page title> | <site name>" (or the site title on the home page),
 * the page's description or the site's, and the site's keywords.
 */
export function pageMeta(
  matches: MatchLike[],
  page: { title?: string; titleKey?: string; description?: string; noindex?: boolean } = {},
): MetaDescriptor[] {
  const site = rootSiteInfo(matches);
  const t = translatorFor(rootLanguage(matches));
  if (page.titleKey) page = { ...page, title: t(page.titleKey) };
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
  // every page of the blog names its feeds, titled in the reader's language (a layout's
  // links() cannot see which language the root chose)
  if (matches.some((match) => match.id === "routes/blog")) {
    tags.push({ tagName: "link", rel: "alternate", type: "application/rss+xml", href: "/blog/feed.xml", title: t("shop.blog.feedRss") });
    tags.push({ tagName: "link", rel: "alternate", type: "application/atom+xml", href: "/blog/atom.xml", title: t("shop.blog.feedAtom") });
  }
  return tags;
}
