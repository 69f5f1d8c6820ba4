/**
 * What every page's root loader reads: the site's settings, the toast, the visitor, the
 * currency and rates, and the header's category menu. One server module for the root
 * route: each `.server` module a route imports costs the browser an empty chunk.
 */
import { adminTimeZone } from "~/services/site-settings.server";
import type { CategoryNavItem } from "~/components/storefront/category-nav";
import { readCurrency } from "~/lib/currency.server";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";
import { isBackOfficePath, type Language } from "~/i18n/languages";
import { plainLine } from "~/lib/text";
import { getToast } from "~/lib/toast.server";
import { isTrue, SITE_SETTING_FALLBACKS, type SiteInfo } from "~/schemas/site-settings";
import { type CategoryWithCount } from "~/services/catalogue/common.server";
import { categoriesForStorefront } from "~/services/catalogue/categories.server";
import { getRates } from "~/services/currency.server";
import { getAccess } from "~/services/permissions.server";
import { getPageUser } from "~/services/request-user.server";
import { loadSettings, toAdBannerConfig, toSiteInfo } from "~/services/site-settings.server";

/**
 * The categories as a tree: parents in display order, each with its subcategories (the
 * header's menu and the home page). A parent's count already includes its subcategories'
 * products (its page lists them too).
 */
export function categoryTree(categories: CategoryWithCount[]): CategoryNavItem[] {
  return categories
    .filter((category) => category.parentId === null)
    .map((parent) => ({
      id: parent.id,
      name: parent.name,
      productCount: parent.productCount,
      children: categories
        .filter((child) => child.parentId === parent.id)
        .map((child) => ({ id: child.id, name: child.name, productCount: child.productCount })),
    }));
}

export async function rootLoader(request: Request) {
  const settings = await loadSettings();
  const { toast, headers } = await getToast(request);
  const language = readLanguage(request);
  const url = new URL(request.url);
  const user = await getPageUser(request);
  const access = user ? await getAccess(user) : null;
  const [{ rates }, categories] = await Promise.all([getRates(), categoriesForStorefront(access)]);
  return Response.json(
    {
      siteInfo: inReadersLanguage(toSiteInfo(settings), language),
      // a switched-off banner (perhaps a draft) never reaches the page, not even its data
      adBanner: isTrue(settings.ad_banner_enabled) ? toAdBannerConfig(settings) : null,
      analyticsCode: settings.google_analytics_code.trim(),
      toast,
      searchQuery: url.pathname === "/search" ? plainLine(url.searchParams.get("q") ?? "") : "",
      currency: readCurrency(request),
      language,
      // the back office's language may differ from the storefront's (the defaults do):
      // the browser then loads the storefront's texts too, for a client navigation there
      ...(isBackOfficePath(url.pathname)
        ? { storefrontLanguage: readLanguage(request, "/"), timeZone: adminTimeZone(request, settings.time_zone) }
        : {}),
      rates,
      categoryNav: categoryTree(categories),
      currentUser:
        user && access
          ? {
              id: user.id,
              username: user.username,
              avatarUrl: user.avatarUrl,
              hasAdminAccess: access.hasAdminAccess,
            }
          : null,
    },
    { headers: headers ?? undefined },
  );
}

export type RootView = {
  siteInfo: ReturnType<typeof toSiteInfo>;
  adBanner: ReturnType<typeof toAdBannerConfig> | null;
  analyticsCode: string;
  toast: Awaited<ReturnType<typeof getToast>>["toast"];
};

/**
 * The site's title and description as the reader's language says them while they are the
 * product's own defaults; the shop's own words, once written, are shown as written (the
 * /api gives them as stored).
 */
function inReadersLanguage(site: SiteInfo, language: Language): SiteInfo {
  const t = translatorFor(language);
  return {
    ...site,
    site_title: site.site_title === SITE_SETTING_FALLBACKS.site_title ? t("shop.site.defaultTitle") : site.site_title,
    site_description:
      site.site_description === SITE_SETTING_FALLBACKS.site_description ? t("shop.site.defaultDescription") : site.site_description,
  };
}
