import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { getAllSettings, getSettingEntries, saveSettings } from "~/models/site-settings.server";
import { SITE_SETTING_KEYS } from "~/schemas/site-settings";
import { loadSettings, robotsTxt, saveSiteSettings, toAdBannerConfig, toSiteInfo } from "./site-settings.server";

describe("site settings", () => {
  it("has every key of docs/product/admin.md section 3 with a description after migration", async () => {
    const entries = await getSettingEntries(getDb());
    for (const key of SITE_SETTING_KEYS) {
      expect(entries[key], key).toBeDefined();
      expect(entries[key].description.length, key).toBeGreaterThan(0);
    }
    expect(entries.ad_banner_enabled.value).toBe("false");
    expect(entries.show_external_products.value).toBe("true");
  });

  it("saves values and keeps the others", async () => {
    await saveSettings(getDb(), { site_name: "Test Shop", ad_banner_enabled: "true" });
    const settings = await getAllSettings(getDb());
    expect(settings.site_name).toBe("Test Shop");
    expect(settings.ad_banner_enabled).toBe("true");
    expect(settings.show_external_products).toBe("true");
    await saveSettings(getDb(), { site_name: "QC Finder", ad_banner_enabled: "false" });
  });

  it("falls back to defaults for empty values and reads booleans", async () => {
    const settings = { ...(await loadSettings()), site_name: " ", show_external_products: "false" };
    const info = toSiteInfo(settings);
    expect(info.site_name).toBe("QC Finder");
    expect(info.show_external_products).toBe(false);
    expect(info.site_url).toBe("http://localhost:3000");
    expect(toSiteInfo({ ...settings, site_url: "https://shop.example/" }).site_url).toBe("https://shop.example");
  });

  it("maps the ad banner settings", async () => {
    const settings = {
      ...(await loadSettings()),
      ad_banner_enabled: "true",
      ad_banner_title: "Sale",
      ad_banner_button_subtext_mobile: "tap",
    };
    expect(toAdBannerConfig(settings)).toMatchObject({ enabled: true, title: "Sale", buttonSubtextMobile: "tap" });
  });

  it("writes a default robots.txt pointing at the sitemap, or the custom text", async () => {
    const settings = await loadSettings();
    const fallback = robotsTxt(settings);
    expect(fallback).toContain("User-agent: *");
    expect(fallback).toContain("Disallow: /admin");
    expect(fallback).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    expect(robotsTxt({ ...settings, robots_txt: "User-agent: *\r\nDisallow: /\r\n" })).toBe("User-agent: *\nDisallow: /\n");
  });
});

describe("settings in memory", () => {
  it("are read once and kept until a save through saveSiteSettings drops them", async () => {
    const first = await loadSettings();
    expect(await loadSettings()).toBe(first);
    await saveSiteSettings({ site_title: "Cached title check" });
    const second = await loadSettings();
    expect(second).not.toBe(first);
    expect(second.site_title).toBe("Cached title check");
    await saveSiteSettings({ site_title: first.site_title });
    expect((await loadSettings()).site_title).toBe(first.site_title);
  });

  it("cannot be changed by a caller by accident", async () => {
    const settings = await loadSettings();
    expect(Object.isFrozen(settings)).toBe(true);
  });
});
