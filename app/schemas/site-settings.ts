/** Site setting keys of docs/product/admin.md section 3, and their typed, client-safe view. */

export const SITE_SETTING_KEYS = [
  "site_name",
  "site_url",
  "site_title",
  "site_description",
  "site_keywords",
  "robots_txt",
  "google_analytics_code",
  "ad_banner_enabled",
  "ad_banner_title",
  "ad_banner_description",
  "ad_banner_button_text",
  "ad_banner_link",
  "ad_banner_button_subtext",
  "ad_banner_button_subtext_mobile",
  "ad_banner_logo",
  "show_external_products",
  "time_zone",
] as const;

export type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];
export type SiteSettings = Record<SiteSettingKey, string>;

export const BOOLEAN_SETTING_KEYS: readonly SiteSettingKey[] = ["ad_banner_enabled", "show_external_products"];

/** Fallbacks used when a row is missing or empty (spec: "default site name ... exist"). */
/** The site's name until one is set (on its own: the pages' scripts need only this one). */
export const DEFAULT_SITE_NAME = "QC Finder";

export const SITE_SETTING_FALLBACKS: Pick<SiteSettings, "site_name" | "site_title" | "site_description" | "site_keywords"> = {
  site_name: DEFAULT_SITE_NAME,
  site_title: "QC Finder – find and check products from Weidian, Taobao, Tmall and 1688",
  site_description:
    "Search products from Weidian, Taobao, Tmall and 1688, compare prices in your currency and check real quality-control photos before you buy through a shopping agent.",
  site_keywords: "weidian, taobao, tmall, 1688, qc photos, shopping agent",
};

/** Public facts about the site (GET /api/site-settings/site-info). */
export type SiteInfo = {
  site_name: string;
  site_title: string;
  site_description: string;
  site_keywords: string;
  site_url: string;
  show_external_products: boolean;
};

/** The advertisement banner (GET /api/site-settings/ad-banner-config). */
export type AdBannerConfig = {
  enabled: boolean;
  title: string;
  description: string;
  buttonText: string;
  link: string;
  buttonSubtext: string;
  buttonSubtextMobile: string;
  logo: string;
};

export const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === "true";
