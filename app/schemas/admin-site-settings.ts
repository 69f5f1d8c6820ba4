/** Messages and rules of the admin site settings (docs/product/admin.md 5, 8): client-safe. */
import type { SiteSettingKey } from "./site-settings";

export const SETTINGS_MESSAGES = {
  saved: "设置保存成功",
  saveFailed: "保存设置失败",
  loadFailed: "加载设置失败",
  sitemapFailed: "生成网站地图失败",
  robotsFailed: "测试 robots.txt 失败",
  noSettings: "settings must be an object of setting key → value",
  invalidUrl: "Please enter a full URL starting with http:// or https:// (or leave it empty)",
  invalidTimeZone: "Enter a time zone such as Asia/Shanghai, Europe/Paris or UTC",
  unknownSetting: (key: string) => `Unknown setting: ${key}`,
  booleanValue: (key: string) => `${key} must be 'true' or 'false'`,
  notText: (key: string) => `${key} must be text`,
  tooLong: (key: string, max: number) => `${key} must be at most ${max} characters`,
} as const;

/** Settings whose value must be a full http(s) URL or empty (url inputs on the page). */
export const URL_SETTING_KEYS: readonly SiteSettingKey[] = ["site_url", "ad_banner_link"];
