import { describe, expect, it } from "vitest";
import { forgetSitemap, registerSitemapSource, sitemapFile } from "./sitemap.server";

describe("sitemap service", () => {
  it("lists the static pages and registered sources, escaped and without duplicates", async () => {
    registerSitemapSource({
      name: "test-source",
      entries: () => [
        { path: "/blog/a&b", lastmod: "2026-11-01" },
        { path: "/", priority: 0.2 },
      ],
    });
    forgetSitemap();
    const file = await sitemapFile("sitemap.xml");
    const xml = file!.xml.toString("utf8");
    const urlCount = file!.urlCount;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain("<loc>http://localhost:3000/</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/blog/a&amp;b</loc>");
    expect(xml).toContain("<lastmod>2026-11-01</lastmod>");
    expect(xml.match(/<loc>http:\/\/localhost:3000\/<\/loc>/g)).toHaveLength(1);
    // the blog's own address is always listed (its posts, categories and tags when there are some)
    expect(xml).toContain("<loc>http://localhost:3000/blog</loc>");
    expect(urlCount).toBe(4);
  });
});
