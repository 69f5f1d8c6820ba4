/**
 * Site settings as the rest of the app sees them: typed views with fallbacks, read from
 * memory. Every page needs them, so they are loaded once and kept until a save through
 * saveSiteSettings() drops the copy, or another process writes to the database file
 * (SQLite's data_version tells, at no query's cost).
 */
import { canonicalZone, DEFAULT_TIME_ZONE, isTimeZone, TIME_ZONE_COOKIE, withZoneOffset } from "~/lib/time-zones";
import { pagesChanged } from "./writes.server";
import { dataVersion, getDb, type DB } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { getAllSettings, saveSettings } from "~/models/site-settings.server";
import {
  SITE_SETTING_FALLBACKS,
  isTrue,
  type AdBannerConfig,
  type SiteInfo,
  type SiteSettingKey,
  type SiteSettings,
} from "~/schemas/site-settings";
import { cookieValues } from "~/lib/http";

let cached: { db: DB; version: number; settings: Promise<SiteSettings> } | undefined;

export function loadSettings(): Promise<SiteSettings> {
  const db = getDb();
  const version = dataVersion();
  if (cached?.db !== db || cached.version !== version) {
    const settings = getAllSettings(db).then((values) => Object.freeze(values));
    cached = { db, version, settings };
    // a failed read is not kept
    settings.catch(() => {
      if (cached?.settings === settings) cached = undefined;
    });
  }
  return cached.settings;
}

/** Saves settings (one transaction) and drops the copy in memory. */
export async function saveSiteSettings(values: Partial<Record<SiteSettingKey, string>>): Promise<void> {
  try {
    await saveSettings(getDb(), values);
  } finally {
    cached = undefined;
    pagesChanged(["shop"]);
  }
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

/**
 * The zone the back office types and shows scheduled times in (docs/decisions/048): the
 * browser's (the `tz` cookie its pages set), else the site's `time_zone` setting, else UTC.
 */
export function adminTimeZone(request: Request, siteZone: string | undefined): string {
  for (const value of cookieValues(request.headers.get("Cookie"), TIME_ZONE_COOKIE)) {
    const zone = value.replace(/%2F/gi, "/");
    if (isTimeZone(zone)) return canonicalZone(zone);
  }
  return isTimeZone(siteZone) ? canonicalZone(siteZone) : DEFAULT_TIME_ZONE;
}

/** This request's back-office zone (adminTimeZone with the site's setting). */
export async function requestTimeZone(request: Request): Promise<string> {
  return adminTimeZone(request, (await loadSettings()).time_zone);
}

/**
 * A form's scheduled times, typed in the zone its hidden `time_zone` field names (else this
 * request's), as instants the schemas read ("…T14:10" → "…T14:10+08:00"). Answers a
 * function that puts the typed text back into the submission, for a reply to show it again.
 */
export async function readZonedTimes(
  request: Request,
  form: FormData,
  fields: string[],
): Promise<(submission: { payload: Record<string, unknown> }) => void> {
  const posted = form.get("time_zone");
  const zone = isTimeZone(posted) ? posted : await requestTimeZone(request);
  form.delete("time_zone");
  const typed: Record<string, string> = {};
  for (const field of fields) {
    const value = form.get(field);
    if (typeof value !== "string" || !value.trim()) continue;
    typed[field] = value;
    form.set(field, withZoneOffset(value, zone));
  }
  return (submission) => {
    for (const [field, value] of Object.entries(typed)) if (field in submission.payload) submission.payload[field] = value;
  };
}
