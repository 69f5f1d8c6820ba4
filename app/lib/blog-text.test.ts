import { describe, expect, it } from "vitest";
import { articleSlug, countWords, htmlToText, postSlugFromTitle, readingTime, slugFromName, summarize, uniqueSlug } from "./blog-text";

const NOW = 1_764_000_123_456;

describe("post slugs (docs/product/admin.md 5)", () => {
  it.each([
    ["How to Buy on Weidian", "how-to-buy-on-weidian"],
    ["  QC Photos: What to Check?!  ", "qc-photos-what-to-check"],
    ["Top 10 Sneakers of 2026", "top-10-sneakers-of-2026"],
    ["Café Crème & Co.", "cafe-creme-co"],
    ["ＦＵＬＬ width", "full-width"],
    ["淘宝购物指南", "taobao-gouwu-zhinan"],
    ["Weidian 新手指南 2026", "weidian-xinshou-zhinan-2026"],
    ["如何选择尺码", "ruhe-xuanze-chima"],
  ])("%j → %j", (title, slug) => {
    expect(postSlugFromTitle(title, NOW)).toBe(slug);
  });

  it("becomes 'article-' and the last six digits of the time when Chinese remains", () => {
    expect(postSlugFromTitle("淘宝好物分享", NOW)).toBe("article-123456");
    expect(postSlugFromTitle("我的第一篇文章", NOW)).toBe("article-123456");
    expect(articleSlug(1_000_000_000_042)).toBe("article-000042");
  });

  it("never comes out empty, and stays short", () => {
    expect(postSlugFromTitle("!!! ???", NOW)).toBe("article-123456");
    const long = postSlugFromTitle("word ".repeat(60), NOW);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("is unique with -2, -3 on collision", () => {
    expect(uniqueSlug("post", new Set())).toBe("post");
    expect(uniqueSlug("post", new Set(["post"]))).toBe("post-2");
    expect(uniqueSlug("post", new Set(["post", "post-2", "post-3"]))).toBe("post-4");
  });
});

describe("category and tag slugs", () => {
  it.each([
    ["Buying Guides", "buying-guides"],
    ["新手 指南", "新手-指南"],
    ["QC & Photos / 质检", "qc-photos-质检"],
    ["--Edge--", "edge"],
  ])("%j → %j", (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });
});

describe("text and reading time", () => {
  it("strips tags, drops scripts and styles, decodes entities", () => {
    expect(htmlToText("<h2>Title</h2><p>A &amp; B&nbsp;&lt;c&gt; &#20013;&#x6587;</p><script>x()</script>")).toBe("Title A & B <c> 中文");
  });

  it("counts words: spaces separate words, each Chinese character is one", () => {
    expect(countWords("Hello world, again")).toBe(3);
    expect(countWords("微店购物 guide — 2026")).toBe(6);
    expect(countWords("  ")).toBe(0);
  });

  it("is words of the tag-stripped content ÷ 200, rounded up, at least 1", () => {
    expect(readingTime("<p>one</p>")).toBe(1);
    expect(readingTime(`<p>${"word ".repeat(200)}</p>`)).toBe(1);
    expect(readingTime(`<p>${"word ".repeat(201)}</p>`)).toBe(2);
    expect(readingTime(`<p>${"<b>w</b> ".repeat(1500)}</p>`)).toBe(8);
    expect(readingTime(`<p>${"字".repeat(401)}</p>`)).toBe(3);
  });

  it("summarises at a word with an ellipsis", () => {
    expect(summarize("short text")).toBe("short text");
    const summary = summarize("alpha beta gamma delta epsilon zeta", 20);
    expect(summary).toBe("alpha beta gamma…");
  });
});
