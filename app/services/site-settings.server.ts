/**
 * Site settings as the rest of the app sees them: typed views with fallbacks.
 */
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { getAllSettings } from "~/models/site-settings.server";
import {
  SITE_SETTING_FALLBACKS,
  isTrue,
  type AdBannerConfig,
  type SiteInfo,
  type SiteSettings,
} from "~/schemas/site-settings";

export async function loadSettings(): Promise<SiteSettings> {
  return getAllSettings(getDb());
}

/** The site's public base address: the site_url setting, else PUBLIC_URL. No trailing slash. */
export function siteBaseUrl(settings: Pick<SiteSettings, "site_url">): string {
  const configured = settings.site_url.trim();
  if (configured) {
    try {
      const url = new URL(configured);
      if (url.protocol === "http:" || url.protocol === "https:") return url.origin + url.pathname.replace(/\/+$/, "");
    } catch {
      // an invalid stored value falls back to PUBLIC_URL
    }
  }
  return getEnv().PUBLIC_URL;
}

export function toSiteInfo(settings: SiteSettings): SiteInfo {
  const or = (value: string, fallback: string) => (value.trim() ? value : fallback);
  return {
    site_name: or(settings.site_name, SITE_SETTING_FALLBACKS.site_name),
    site_title: or(settings.site_title, SITE_SETTING_FALLBACKS.site_title),
    site_description: or(settings.site_description, SITE_SETTING_FALLBACKS.site_description),
    site_keywords: or(settings.site_keywords, SITE_SETTING_FALLBACKS.site_keywords),
    site_url: siteBaseUrl(settings),
    show_external_products: isTrue(settings.show_external_products),
  };
}

export function toAdBannerConfig(settings: SiteSettings): AdBannerConfig {
  return {
    enabled: isTrue(settings.ad_banner_enabled),
    title: settings.ad_banner_title,
    description: settings.ad_banner_description,
    buttonText: settings.ad_banner_button_text,
    link: settings.ad_banner_link,
    buttonSubtext: settings.ad_banner_button_subtext,
    buttonSubtextMobile: settings.ad_banner_button_subtext_mobile,
    logo: settings.ad_banner_logo,
  };
}

/** The robots.txt body: the robots_txt setting, or a default that points at the sitemap. */
export function robotsTxt(settings: SiteSettings): string {
  const custom = settings.robots_txt.replace(/\r\n/g, "\n").trim();
  if (custom) return custom + "\n";
  const base = siteBaseUrl(settings);
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /profile",
    "Disallow: /collections",
    "Disallow: /login",
    "Disallow: /register",
    "Disallow: /forgot-password",
    "Disallow: /reset-password",
    "Disallow: /verify-email",
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
}
