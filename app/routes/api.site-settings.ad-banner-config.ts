import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { loadSettings, toAdBannerConfig } from "~/services/site-settings.server";
import { isTrue, SITE_SETTING_KEYS } from "~/schemas/site-settings";

const BANNER_KEYS = SITE_SETTING_KEYS.filter((key) => key.startsWith("ad_banner_"));

/**
 * GET /api/site-settings/ad-banner-config → data: the banner as the storefront draws it
 * ({enabled, title, ...}) and, since the spec leaves the shape open, the same values under
 * their setting keys (docs/product/admin.md 3: ad_banner_enabled 'true'/'false', ad_banner_title, ...).
 */
export const loader = () =>
  apiRoute(async () => {
    const settings = await loadSettings();
    const byKey = Object.fromEntries(BANNER_KEYS.map((key) => [key, settings[key]]));
    byKey.ad_banner_enabled = isTrue(settings.ad_banner_enabled) ? "true" : "false";
    return ok({ data: { ...toAdBannerConfig(settings), ...byKey } });
  });

export const action = () => methodNotAllowed(["GET"]);
