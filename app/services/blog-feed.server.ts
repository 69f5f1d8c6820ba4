/**
 * The blog's feeds: RSS 2.0 (/blog/feed.xml) and Atom 1.0 (/blog/atom.xml), the newest
 * public posts with their full (sanitised) HTML, addresses made absolute on the site's
 * base address. Each answer carries an ETag (a hash of the feed) and Last-Modified (the
 * newest change among its posts); a repeat request with either answers 304.
 */
import crypto from "node:crypto";
import { getDb } from "~/lib/db.server";
import { lastPostChange, listPosts, type BlogPost } from "~/models/blog.server";
import { escapeHtml, escapeXml, xmlSafe } from "~/lib/text";
import { FEED_SIZE } from "~/schemas/blog-rules";
import { authorName, postPath, postSummary } from "./blog/common.server";
import { loadSettings, siteBaseUrl, toSiteInfo } from "./site-settings.server";

export type FeedKind = "rss" | "atom";

export const FEED_PATHS: Record<FeedKind, string> = { rss: "/blog/feed.xml", atom: "/blog/atom.xml" };
const CONTENT_TYPES: Record<FeedKind, string> = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
};

/**
 * An RSS description: HTML by the RSS spec, so plain text (a post's summary) is written
 * as HTML text, then as XML. A reader shows `<img onerror=…>` from a post's code sample
 * as those characters; it never runs it.
 */
const rssDescription = (text: string) => escapeXml(escapeHtml(text));

/**
 * An RSS title: plain text by the spec, yet some readers render it as HTML. "&" goes as a
 * character reference (what every reader shows as "&", the RSS Board's advice); "<" and
 * ">" as HTML text inside the XML, so no reader ever builds a tag from a title.
 */
const rssTitle = (text: string) =>
  xmlSafe(text).replace(/&/g, "&#x26;").replace(/</g, "&amp;lt;").replace(/>/g, "&amp;gt;").replace(/"/g, "&quot;");

/** Site-relative addresses in a post's HTML (its images and links) made absolute for feed readers. */
export function absolutizeHtml(html: string, base: string): string {
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${base}/`);
}

type Feed = { body: string; etag: string; lastModified: Date | null };

async function feedData() {
  const settings = await loadSettings();
  const site = toSiteInfo(settings);
  const base = siteBaseUrl(settings);
  const { items } = await listPosts(
    getDb(),
    { publicOnly: { now: new Date().toISOString() } },
    { order: "latest", page: 1, limit: FEED_SIZE, withContent: true },
  );
  return { site, base, posts: items };
}

function lastChange(posts: BlogPost[]): Date | null {
  const stamps = posts
    .map((post) => Date.parse(post.updatedAt > (post.publishedAt ?? "") ? post.updatedAt : post.publishedAt!))
    .filter(Number.isFinite);
  return stamps.length ? new Date(Math.max(...stamps)) : null;
}

function rss({ site, base, posts }: Awaited<ReturnType<typeof feedData>>, updated: Date): string {
  const items = posts.map((post) => {
    const url = base + postPath(post);
    const author = authorName(post);
    const categories = [post.categoryName, ...post.tags.map((tag) => tag.name)].filter(Boolean) as string[];
    const html = xmlSafe(absolutizeHtml(post.content, base)).replace(/]]>/g, "]]]]><![CDATA[>");
    return [
      "    <item>",
      `      <title>${rssTitle(post.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <pubDate>${new Date(post.publishedAt!).toUTCString()}</pubDate>`,
      author ? `      <dc:creator>${escapeXml(author)}</dc:creator>` : null,
      ...categories.map((name) => `      <category>${escapeXml(name)}</category>`),
      `      <description>${rssDescription(postSummary(post, 300))}</description>`,
      `      <content:encoded><![CDATA[${html}]]></content:encoded>`,
      "    </item>",
    ]
      .filter((line) => line !== null)
      .join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${rssTitle(`${site.site_name} Blog`)}</title>`,
    `    <link>${escapeXml(`${base}/blog`)}</link>`,
    `    <description>${rssDescription(site.site_description)}</description>`,
    "    <language>en</language>",
    `    <lastBuildDate>${updated.toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(base + FEED_PATHS.rss)}" rel="self" type="application/rss+xml" />`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

function atom({ site, base, posts }: Awaited<ReturnType<typeof feedData>>, updated: Date): string {
  const entries = posts.map((post) => {
    const url = base + postPath(post);
    const author = authorName(post) ?? site.site_name;
    return [
      "  <entry>",
      `    <title>${escapeXml(post.title)}</title>`,
      `    <link href="${escapeXml(url)}" rel="alternate" type="text/html" />`,
      `    <id>${escapeXml(url)}</id>`,
      `    <published>${new Date(post.publishedAt!).toISOString()}</published>`,
      `    <updated>${new Date(post.updatedAt > post.publishedAt! ? post.updatedAt : post.publishedAt!).toISOString()}</updated>`,
      `    <author><name>${escapeXml(author)}</name></author>`,
      ...[post.categoryName, ...post.tags.map((tag) => tag.name)]
        .filter(Boolean)
        .map((name) => `    <category term="${escapeXml(name!)}" />`),
      `    <summary type="text">${escapeXml(postSummary(post, 300))}</summary>`,
      `    <content type="html">${escapeXml(absolutizeHtml(post.content, base))}</content>`,
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${escapeXml(`${site.site_name} Blog`)}</title>`,
    `  <subtitle>${escapeXml(site.site_description)}</subtitle>`,
    `  <link href="${escapeXml(base + FEED_PATHS.atom)}" rel="self" type="application/atom+xml" />`,
    `  <link href="${escapeXml(`${base}/blog`)}" rel="alternate" type="text/html" />`,
    `  <id>${escapeXml(`${base}/blog`)}</id>`,
    `  <updated>${updated.toISOString()}</updated>`,
    `  <author><name>${escapeXml(site.site_name)}</name></author>`,
    `  <generator>${escapeXml(site.site_name)}</generator>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}

/** Each feed's current ETag and when this process first answered it (whole seconds). */
const seen = new Map<FeedKind, { etag: string; since: number }>();

export async function buildFeed(kind: FeedKind): Promise<Feed> {
  const [data, anyChange] = await Promise.all([feedData(), lastPostChange(getDb())]);
  const newest = lastChange(data.posts);
  // an empty blog's feed is as old as the start of the epoch: nothing to report
  const updated = newest ?? new Date(0);
  const body = kind === "rss" ? rss(data, updated) : atom(data, updated);
  const etag = `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  /*
   * Last-Modified must move forward whenever the feed changes, also when a post leaves it
   * (unpublished: its updated_at is the newest change of any post; deleted: the feed's
   * body changed while this process ran), else a client asking with If-Modified-Since
   * alone would keep a stale copy.
   */
  const stamps = [newest?.getTime(), anyChange ? Date.parse(anyChange) : undefined].filter(
    (t): t is number => t !== undefined && Number.isFinite(t),
  );
  const previous = seen.get(kind);
  if (!previous || previous.etag !== etag) seen.set(kind, { etag, since: previous ? Math.floor(Date.now() / 1000) * 1000 : 0 });
  const since = seen.get(kind)!.since;
  if (since) stamps.push(since);
  const lastModified = stamps.length ? new Date(Math.max(...stamps)) : null;
  return { body, etag, lastModified };
}

/** Whether the client's copy (If-None-Match, else If-Modified-Since) is still the current one. */
export function isFresh(request: Request, feed: Pick<Feed, "etag" | "lastModified">): boolean {
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch) return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === feed.etag || tag.trim() === "*");
  const ifModifiedSince = request.headers.get("If-Modified-Since");
  if (!ifModifiedSince || !feed.lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(feed.lastModified.getTime() / 1000) * 1000 <= since;
}

/** The feed's answer: 200 with the XML, or 304 when the client's copy is current. */
export async function feedResponse(request: Request, kind: FeedKind): Promise<Response> {
  const feed = await buildFeed(kind);
  const headers = new Headers({ ETag: feed.etag, "Cache-Control": "public, max-age=300" });
  if (feed.lastModified) headers.set("Last-Modified", feed.lastModified.toUTCString());
  if (isFresh(request, feed)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", CONTENT_TYPES[kind]);
  return new Response(request.method === "HEAD" ? null : feed.body, { status: 200, headers });
}
