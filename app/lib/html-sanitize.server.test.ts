import { describe, expect, it } from "vitest";
import { COMMENT_TAGS, findXss, XSS_PAYLOADS } from "../../tests/fixtures/xss-payloads";
import { COMMENT_LINK_REL, countLinks, isAllowedImageSrc, sanitizeCommentHtml, sanitizePostHtml } from "./html-sanitize.server";

describe("the XSS payload set", () => {
  it("has more than 50 payloads, and the checker sees the danger in nearly all of them raw", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThan(50);
    const caught = XSS_PAYLOADS.filter((payload) => findXss(payload).length > 0);
    // a checker that finds nothing would prove nothing
    expect(caught.length).toBeGreaterThanOrEqual(XSS_PAYLOADS.length - 2);
  });

  it.each(XSS_PAYLOADS.map((payload) => [payload]))("gets through neither a post nor a comment: %s", (payload) => {
    expect(findXss(sanitizePostHtml(payload))).toEqual([]);
    expect(findXss(sanitizeCommentHtml(payload), { allowedTags: COMMENT_TAGS })).toEqual([]);
  });
});

describe("posts keep the editor's formatting", () => {
  it("keeps headings 1–6, marks, lists, quotes, code, rules and safe links and images", () => {
    const html =
      "<h1>One</h1><h2>Two</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>" +
      "<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code><br /></p>" +
      '<ul><li><p>a</p></li></ul><ol start="3"><li><p>b</p></li></ol><blockquote><p>q</p></blockquote>' +
      '<pre><code class="language-ts">const a = 1;</code></pre><hr />' +
      '<p><a href="https://weidian.com/item.html?itemID=1">w</a> <a href="/blog/x">in</a> <a href="mailto:a@b.c">m</a></p>' +
      '<img src="/uploads/blog/2026-11/0e6e3f0c-1111-4222-8333-944455556666.webp" alt="pic" /><img src="https://img.example/a.jpg" alt="" />';
    expect(sanitizePostHtml(html)).toBe(html);
  });

  it("accepts images only from the uploads folder or https", () => {
    expect(isAllowedImageSrc("/uploads/blog/2026-11/a.webp")).toBe(true);
    expect(isAllowedImageSrc("https://img.example/a.jpg")).toBe(true);
    for (const src of [
      "http://img.example/a.jpg",
      "/uploads/../secrets.json",
      "//evil.example/a.png",
      "data:image/png;base64,AA",
      "/static/a.png",
      "javascript:alert(1)",
    ]) {
      expect(isAllowedImageSrc(src), src).toBe(false);
    }
  });
});

describe("comments", () => {
  it("turn plain text into paragraphs, line breaks and links", () => {
    expect(sanitizeCommentHtml("Great guide!\n\nSee https://example.com/qc?a=1&b=2.\nThanks")).toBe(
      `<p>Great guide!</p><p>See <a href="https://example.com/qc?a=1&amp;b=2" rel="${COMMENT_LINK_REL}">https://example.com/qc?a=1&amp;b=2</a>.<br />Thanks</p>`,
    );
  });

  it("keep only p, br, a and blockquote, every link with rel ugc nofollow noopener noreferrer", () => {
    const html = sanitizeCommentHtml(
      '<blockquote>quoted</blockquote><p><b>bold</b> <a href="https://a.example" rel="me" target="_blank">a</a> <a href="/local">local</a></p><h1>big</h1>',
    );
    expect(html).toBe(`<blockquote>quoted</blockquote><p>bold <a href="https://a.example" rel="${COMMENT_LINK_REL}">a</a> local</p>big`);
    expect(countLinks(html)).toBe(1);
  });

  it("show typed markup as text", () => {
    expect(sanitizeCommentHtml("a < b, <script>alert(1)</script>")).toBe("<p>a &lt; b, &lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });
});
