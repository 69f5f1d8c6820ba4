import { describe, expect, it } from "vitest";
import { ApiError } from "~/lib/api.server";
import { PERMISSIONS } from "~/lib/permissions";
import type { User } from "~/models/user.server";
import { analyseRobotsTxt, generateSitemapReport, getAppVersion, getSystemStatus, validateSettingsChanges } from "./site-tools.server";

const access = (userType: "super_admin" | "admin") => ({
  userType,
  roles: [],
  directPermissions: [],
  allPermissions: userType === "super_admin" ? [...PERMISSIONS] : [],
  hasAdminAccess: true,
});
const superAdmin = { user: { id: 1, isAdmin: true } as User, access: access("super_admin") };
const plainAdmin = { user: { id: 2, isAdmin: true } as User, access: access("admin") };

describe("analyseRobotsTxt", () => {
  it("reads groups, rules and sitemaps, ignoring comments and blank lines", () => {
    const result = analyseRobotsTxt(
      "# hi\nUser-agent: *\nAllow: /\nDisallow: /admin # back office\n\nSitemap: https://shop.example/sitemap.xml\n",
    );
    expect(result).toEqual({
      lineCount: 4,
      userAgents: ["*"],
      ruleCount: 2,
      sitemaps: ["https://shop.example/sitemap.xml"],
      problems: [],
      warnings: [],
    });
  });

  it("reports unknown directives, rules outside a group, bad lines and relative sitemaps", () => {
    const result = analyseRobotsTxt("Disallow: /x\nUser-agent: bot\nNoindx: /y\njust words\nSitemap: /sitemap.xml");
    expect(result.problems).toEqual([
      "line 1: Disallow before any User-agent",
      'line 3: unknown directive "Noindx"',
      'line 4: not a "Directive: value" line',
      "line 5: the Sitemap must be a full URL",
    ]);
    expect(result.warnings).toEqual(["no Sitemap line: crawlers will not find /sitemap.xml from here"]);
  });

  it("needs a User-agent", () => {
    expect(analyseRobotsTxt("").problems).toEqual(["no User-agent line"]);
  });
});

describe("validateSettingsChanges", () => {
  it("normalises values", () => {
    expect(
      validateSettingsChanges({ site_name: " Shop ", ad_banner_enabled: true, show_external_products: " False ", robots_txt: "a\r\nb" }),
    ).toEqual({
      site_name: "Shop",
      ad_banner_enabled: "true",
      show_external_products: "false",
      robots_txt: "a\nb",
    });
  });

  it("collects one error per bad field", () => {
    try {
      validateSettingsChanges({ nope: "1", site_url: "shop.example", ad_banner_enabled: "yes", site_title: "x".repeat(1001) });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).errors?.map((e) => e.field)).toEqual(["nope", "site_url", "ad_banner_enabled", "site_title"]);
    }
  });
});

describe("tools and status", () => {
  it("reports the sitemap it builds, for the super administrator only", async () => {
    await expect(generateSitemapReport(plainAdmin)).rejects.toMatchObject({ status: 403, message: "权限不足，需要管理员权限" });
    const report = await generateSitemapReport(superAdmin);
    expect(report.urlCount).toBeGreaterThanOrEqual(1);
    expect(report.bytes).toBeGreaterThan(50);
    expect(report.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reads the version from package.json and asks the database", async () => {
    expect(getAppVersion()).toMatch(/^\d+\.\d+\.\d+/);
    const status = await getSystemStatus();
    expect(status.database.ok).toBe(true);
    expect(status.lastMaintenance).toBe(new Date().toISOString().slice(0, 10));
  });
});
