/**
 * The blog's pages over plain HTTP, as a browser without JavaScript uses them: the public
 * list, search, category and tag pages, the post page (body sent once, meta, Open Graph,
 * JSON-LD, views, page weight), likes and comments as forms, and the back office (who may
 * see what, categories, the post list's toggle and delete, the editor with its featured
 * image upload, moderation, settings), each checked on the server.
 */
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
let cookies: { admin: string; author: string; reader: string; other: string };
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;
const page = (path: string, cookie?: string) => getPage(server.url, path, cookie);
const post = (path: string, cookie: string, fields: Record<string, string> | Array<[string, string]>) =>
  postForm(server.url, path, cookie, fields);
const html = async (path: string, cookie?: string) => {
  const response = await page(path, cookie);
  expect(response.status, path).toBe(200);
  return response.text();
};
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

async function person(options: { admin?: boolean; permissions?: string[] } = {}) {
  const username = unique("p");
  const roles = options.admin
    ? (await api(server.url, "/api/admin/roles", { token: admin })).body.data
        .filter((r: { name: string }) => r.name === "admin")
        .map((r: { id: number }) => r.id)
    : [];
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username, email: `${username}@example.com`, password: "page-pass-1", roleIds: roles },
  });
  expect(made.status).toBe(201);
  const all = (await api(server.url, "/api/admin/permissions", { token: admin })).body.data as Array<{ id: number; name: string }>;
  for (const name of options.permissions ?? [])
    await api(server.url, `/api/admin/users/${made.body.data.id}/permissions/${all.find((p) => p.name === name)!.id}`, {
      method: "POST",
      token: admin,
    });
  return { username, cookie: await formLogin(server.url, `${username}@example.com`, "page-pass-1") };
}

async function createPost(body: Record<string, unknown>) {
  const response = await api(server.url, "/api/blog/posts", {
    token: admin,
    body: { content: "<p>Body.</p>", status: "published", ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; slug: string; title: string; status: string };
}

const setSettings = (body: Record<string, unknown>) => api(server.url, "/api/blog/settings", { method: "PUT", token: admin, body });

let readerName: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const reader = await person();
  readerName = reader.username;
  cookies = {
    admin: await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password),
    author: (await person({ admin: true, permissions: ["blog.create"] })).cookie,
    reader: reader.cookie,
    other: (await person()).cookie,
  };
});

afterAll(async () => {
  await server?.stop();
});

describe("public pages", () => {
  it("pages through the blog with the first, the last and two either side of the current page", async () => {
    const tag = unique("pager");
    for (let n = 0; n < 12; n++)
      await createPost({ title: `Paged ${n} ${tag}`, tags: [tag], published_at: new Date(Date.UTC(2025, 0, 1 + n)).toISOString() });
    await setSettings({ posts_per_page: 1 });
    try {
      const text = await html(`/blog/tag/${tag.toLowerCase()}?page=6`);
      const pager = /<nav class="pagination"[^>]*>([\s\S]*?)<\/nav>/.exec(text)![1];
      const labels = [...pager.matchAll(/<(a|span)[^>]*>([^<]*)<\/\1>/g)].map((m) => m[2].trim());
      expect(labels).toEqual(["‹ Previous", "1", "…", "4", "5", "6", "7", "8", "…", "12", "Next ›"]);
      expect(pager).toContain('aria-current="page" class="pagination__current">6<');
      expect(pager).toContain(`href="/blog/tag/${tag.toLowerCase()}"`);
      expect(text).toContain(`Paged 6 ${tag}`);
      // each page of a list is canonical at its own address; the first without ?page=
      expect(text).toContain(`<link rel="canonical" href="http://localhost:${server.port}/blog/tag/${tag.toLowerCase()}?page=6"/>`);
      expect(await html(`/blog/tag/${tag.toLowerCase()}?page=1&utm_source=x`)).toContain(
        `<link rel="canonical" href="http://localhost:${server.port}/blog/tag/${tag.toLowerCase()}"/>`,
      );
    } finally {
      await setSettings({ posts_per_page: 10 });
    }
  });

  it("searches, lists categories and tags, and links the blog from the site header", async () => {
    const word = unique("zebra");
    const category = (await api(server.url, "/api/blog/categories", { token: admin, body: { name: unique("Cat ") } })).body.data;
    const found = await createPost({ title: `About ${word}`, category_id: category.id, tags: ["Listed"] });
    const search = await html(`/blog?q=${word}`);
    expect(search).toContain(`About ${word}`);
    // search results are not indexed and name no canonical; the lists do
    expect(search).not.toContain('rel="canonical"');
    expect(await html("/blog?page=1")).toContain(`<link rel="canonical" href="http://localhost:${server.port}/blog"/>`);
    expect(await html(`/blog/category/${category.slug}`)).toContain(
      `<link rel="canonical" href="http://localhost:${server.port}/blog/category/${category.slug}"/>`,
    );
    expect(search).toContain("1 post found");
    expect(await html(`/blog?q=${unique("nothing")}`)).toContain("No posts match your search.");
    expect(await html(`/blog/category/${category.slug}`)).toContain(`href="/blog/${found.slug}"`);
    expect(await html("/blog/tag/listed")).toContain(`About ${word}`);
    expect((await page("/blog/category/no-such-category")).status).toBe(404);
    expect((await page("/blog/tag/no-such-tag")).status).toBe(404);
    const home = await html("/");
    expect(home).toMatch(/<a[^>]*href="\/blog"[^>]*>Blog<\/a>/);
    expect(await html("/blog")).toContain('type="application/rss+xml" href="/blog/feed.xml"');
  });

  it("cleans a search term as the product search does: a %00 or a tab is a space, on the page and in the API", async () => {
    const [first, second] = [unique("nulla"), unique("nullb")];
    const found = await createPost({ title: `Between ${first} and ${second}` });
    for (const q of [`${first}%00${second}`, `${first}%09${second}`, `%00${first}%0A${second}%1F`]) {
      const search = await html(`/blog?q=${q}`);
      expect(search, q).toContain(`Between ${first} and ${second}`);
      expect(search, q).toContain("1 post found");
      // the term as shown and kept in the search box has no control character left
      expect(search, q).not.toContain("\u0000");
      const answer = await page(`/api/blog/posts/search?q=${q}`);
      expect(answer.status, q).toBe(200);
      const body = await answer.json();
      expect(body.data.posts.map((one: { id: number }) => one.id)).toEqual([found.id]);
    }
    // nothing left once cleaned: the API's missing term, the page's list
    const empty = await page("/api/blog/posts/search?q=%00%09");
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Enter a search term");
    expect(await html("/blog?q=%00")).not.toContain("No posts match your search.");
    // the back office's post search too
    const adminList = await html(`/admin/blog/posts?search=${first}%00`, cookies.admin);
    expect(adminList).toContain(`Between ${first} and ${second}`);
    // its search box shows the term searched, never a NUL
    expect(adminList).toContain(`value="${first}"`);
    expect(adminList).not.toContain("\u0000");
    const listed = await api(server.url, `/api/blog/admin/posts?search=%00${first}`, { token: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.data.posts.map((one: { id: number }) => one.id)).toEqual([found.id]);
  });

  it("sends a post's body once (not again in the page's data), with meta, Open Graph, canonical and Article JSON-LD", async () => {
    const marker = unique("UniqueSentenceMarker");
    const created = await createPost({
      title: "Meta & <Tags>",
      content: `<h2>Heading</h2><p>${"An opening paragraph long enough to fill any summary. ".repeat(8)}</p><p>${marker} is written once.</p>`,
      meta_title: "A meta title",
      meta_description: "A meta description",
      featured_image: "https://img.example/cover.jpg",
      tags: ["Seo"],
    });
    const text = await html(`/blog/${created.slug}`);
    expect(count(text, marker)).toBe(1);
    expect(text).toContain(`<p>${marker} is written once.</p></div>`);
    expect(count(text, "<h2>Heading</h2>")).toBe(1);
    expect(text).toMatch(/<title>A meta title \| [^<]+<\/title>/);
    expect(text).toContain('<meta name="description" content="A meta description"/>');
    expect(text).toContain('<meta property="og:type" content="article"/>');
    // og:title is the article's own title (og:site_name names the site)
    expect(text).toContain('<meta property="og:title" content="A meta title"/>');
    expect(text).toContain('<meta property="og:image" content="https://img.example/cover.jpg"/>');
    expect(text).toContain(`<link rel="canonical" href="http://localhost:${server.port}/blog/${created.slug}"/>`);
    expect(text).toContain('<meta property="article:tag" content="Seo"/>');
    expect(text).not.toContain('content="noindex"');
    const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(text)![1]);
    expect(jsonLd).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Article",
      headline: "Meta & <Tags>",
      description: "A meta description",
      image: ["https://img.example/cover.jpg"],
    });
    expect(jsonLd.datePublished).toBeTruthy();
    expect(text).toContain('<h1 id="post-title">Meta &amp; &lt;Tags&gt;</h1>');
  });

  it("keeps a 1,500-word post page under 30 KB of gzipped HTML", async () => {
    const paragraphs = Array.from(
      { length: 30 },
      (_, p) => `<p>${Array.from({ length: 50 }, (_, w) => `word${p}x${w}`).join(" ")}</p>`,
    ).join("");
    const created = await createPost({ title: unique("Long read "), content: `<h2>Long</h2>${paragraphs}` });
    const response = await page(`/blog/${created.slug}`);
    const body = Buffer.from(await response.arrayBuffer());
    expect((await api(server.url, `/api/blog/posts/id/${created.id}`)).body.data.reading_time).toBe(8);
    const gzipped = zlib.gzipSync(body, { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(30 * 1024);
    // the body is there once: with its words sent twice, the page would be twice as large
    expect(count(body.toString(), "word29x49")).toBe(1);
  });

  it("shows drafts only to blog staff (marked, not indexed), and counts views without bots", async () => {
    const draft = await createPost({ title: unique("Draft page "), status: "draft" });
    expect((await page(`/blog/${draft.slug}`)).status).toBe(404);
    expect((await page(`/blog/${draft.slug}`, cookies.reader)).status).toBe(404);
    const staff = await html(`/blog/${draft.slug}`, cookies.admin);
    expect(staff).toContain("Draft: only blog staff can see this post");
    expect(staff).toContain('content="noindex"');
    const live = await createPost({ title: unique("Counted page ") });
    const views = async () => (await api(server.url, `/api/blog/posts/id/${live.id}`)).body.data.view_count as number;
    await fetch(`${server.url}/blog/${live.slug}`, { headers: { "User-Agent": "Mozilla/5.0 page-reader" } });
    await fetch(`${server.url}/blog/${live.slug}`, { headers: { "User-Agent": "Mozilla/5.0 page-reader" } });
    await fetch(`${server.url}/blog/${live.slug}`, { headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" } });
    expect(await views()).toBe(1);
    // this answer may come from the kept page, whose view is written after the answer
    await fetch(`${server.url}/blog/${live.slug}`, { headers: { "User-Agent": "Mozilla/5.0 another-reader" } });
    await expect.poll(views).toBe(2);
    // a view counted through the API is written before its answer: nothing else is pending
    const counted = await api(server.url, `/api/blog/posts/${live.id}/view`, {
      method: "PUT",
      headers: { "User-Agent": "Mozilla/5.0 api-reader" },
    });
    expect(counted.status).toBe(200);
    expect(await views()).toBe(3);
  });
});

describe("blog pages kept for visitors without a session", () => {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: "manual" });

  it("serves a post page again from memory, counting each reader's view once, and renders it anew after a blog write", async () => {
    const live = await createPost({ title: unique("Kept post ") });
    const path = `/blog/${live.slug}`;
    const first = await get(path, { "User-Agent": "Mozilla/5.0 kept-reader-1" });
    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(first.headers.get("x-blog-post-id")).toBeNull();
    await first.text();
    // a first view may move the popular list every blog page shows: that render is not
    // kept; the same reader again counts no view, so this one is
    const stored = await get(path, { "User-Agent": "Mozilla/5.0 kept-reader-1" });
    const storedHtml = await stored.text();
    const second = await get(path, { "User-Agent": "Mozilla/5.0 kept-reader-1", "Accept-Encoding": "gzip" });
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("x-blog-post-id")).toBeNull();
    expect(await second.text()).toBe(storedHtml);
    // views: once per reader, never for crawlers or incrementView=false, hits included
    await get(path, { "User-Agent": "Mozilla/5.0 kept-reader-2" });
    await get(path, { "User-Agent": "Mozilla/5.0 kept-reader-2" });
    await get(path, { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await get(`${path}?incrementView=false`, { "User-Agent": "Mozilla/5.0 kept-reader-3" });
    const views = async () => (await api(server.url, `/api/blog/posts/id/${live.id}`)).body.data.view_count as number;
    await expect.poll(views).toBe(2);

    // from here on, a reader whose view is counted already: a view that moved the popular
    // list would drop the kept pages too, and only the writes below may do that
    const again = (address: string) => get(address, { "User-Agent": "Mozilla/5.0 kept-reader-1" });
    // a like by a reader is on the visitors' page at once
    await again(path);
    expect((await again(path)).headers.get("x-page-cache")).toBe("hit");
    await post(path, cookies.reader, { intent: "like" });
    const afterLike = await again(path);
    expect(afterLike.headers.get("x-page-cache")).toBeNull();
    expect(await afterLike.text()).toContain('<span class="blog-like__count">♡ <!-- -->1 like</span>');
    // so is an edit of the post, on its page and on the list
    await again("/blog");
    expect((await again("/blog")).headers.get("x-page-cache")).toBe("hit");
    const renamed = unique("Renamed kept post ");
    await api(server.url, `/api/blog/posts/${live.id}`, { method: "PUT", token: admin, body: { title: renamed } });
    expect(await (await again(path)).text()).toContain(renamed);
    expect(await (await again("/blog")).text()).toContain(renamed);
    // and taking it offline
    await again(path);
    await api(server.url, `/api/blog/posts/${live.id}`, { method: "PUT", token: admin, body: { status: "draft" } });
    expect((await again(path)).status).toBe(404);
  });

  it("never serves a kept blog page to a logged-in reader, and never keeps the feeds", async () => {
    const live = await createPost({ title: unique("Per reader post ") });
    const path = `/blog/${live.slug}`;
    // the first view may move the popular list (that render is not kept); the second is kept
    await get(path);
    await get(path);
    expect((await get(path)).headers.get("x-page-cache")).toBe("hit");
    const mine = await page(path, cookies.reader);
    expect(mine.headers.get("x-page-cache")).toBeNull();
    expect(await mine.text()).toContain("Leave a comment");
    for (const feed of ["/blog/feed.xml", "/blog/atom.xml"]) {
      await get(feed);
      expect((await get(feed)).headers.get("x-page-cache"), feed).toBeNull();
    }
  });
});

describe("likes and comments as forms", () => {
  it("likes and unlikes a post; a visitor is sent to log in", async () => {
    const target = await createPost({ title: unique("Likeable ") });
    const path = `/blog/${target.slug}`;
    const visitor = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: "intent=like",
      redirect: "manual",
    });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    const liked = await post(path, cookies.reader, { intent: "like" });
    expect(liked.status).toBe(302);
    expect(liked.headers.get("location")).toBe(`${path}#likes`);
    const after = await html(path, cookies.reader);
    expect(after).toContain("♥ Liked");
    expect(after).toContain('<span class="blog-like__count">1 like</span>');
    await post(path, cookies.reader, { intent: "like" });
    expect(await html(path, cookies.reader)).toContain('<span class="blog-like__count">0 likes</span>');
  });

  it("posts a comment, refuses a second within 15 s keeping the text, replies, likes, and deletes one's own after a confirmation", async () => {
    const target = await createPost({ title: unique("Discussed ") });
    const path = `/blog/${target.slug}`;
    const first = await post(path, cookies.reader, { intent: "comment", content: "Nice guide, thanks!" });
    expect(await toastAfter(server.url, first, cookies.reader)).toContain("Comment posted");
    const comments = (await api(server.url, `/api/blog/posts/${target.id}/comments`)).body.data as Array<{ id: number; content: string }>;
    expect(comments.map((c) => c.content)).toEqual(["<p>Nice guide, thanks!</p>"]);
    const commentId = comments[0].id;

    const flood = await post(path, cookies.reader, { intent: "comment", content: "Too quick a second one" });
    expect(flood.status).toBe(200);
    const floodText = await flood.text();
    expect(floodText).toMatch(/You are commenting too fast: please wait \d+ s/);
    expect(floodText).toContain(">Too quick a second one</textarea>");

    const empty = await post(path, cookies.other, { intent: "comment", content: "   " });
    expect(await empty.text()).toContain("Please write a comment");

    const replyForm = await html(`${path}?replyTo=${commentId}`, cookies.other);
    expect(replyForm).toContain(`Reply to ${readerName}`);
    expect(replyForm).toContain(`<input type="hidden" name="parent_id" value="${commentId}"/>`);
    const reply = await post(path, cookies.other, { intent: "comment", content: "Agreed!", parent_id: String(commentId) });
    expect(reply.status).toBe(302);
    const thread = await html(path);
    expect(thread).toContain(`aria-label="Replies to ${readerName}"`);

    const like = await post(path, cookies.other, { intent: "like-comment", commentId: String(commentId) });
    expect(like.headers.get("location")).toBe(`${path}#comment-${commentId}`);
    expect(await html(path, cookies.other)).toContain(`aria-label="Unlike the comment by ${readerName}"`);

    // deleting takes a confirmation step; only one's own comments offer it
    expect(await html(`${path}?deleteComment=${commentId}`, cookies.other)).not.toContain("Delete your comment?");
    const confirm = await html(`${path}?deleteComment=${commentId}`, cookies.reader);
    expect(confirm).toContain("Delete your comment? This cannot be undone.");
    const stolen = await post(path, cookies.other, { intent: "delete-comment", commentId: String(commentId) });
    expect(await toastAfter(server.url, stolen, cookies.other)).toContain("You can only change your own comments");
    const deleted = await post(path, cookies.reader, { intent: "delete-comment", commentId: String(commentId) });
    expect(await toastAfter(server.url, deleted, cookies.reader)).toContain("Comment deleted");
    expect((await api(server.url, `/api/blog/posts/${target.id}/comments`)).body.data).toEqual([]);
  });

  it("says 'awaiting moderation' when moderation is on, shows the comment to its author only, and closes comments when switched off", async () => {
    const target = await createPost({ title: unique("Moderated ") });
    const path = `/blog/${target.slug}`;
    await setSettings({ comment_moderation: true });
    try {
      expect(await html(path, cookies.other)).toContain("Comments are reviewed before they appear.");
      const sent = await post(path, cookies.other, { intent: "comment", content: "Please approve me" });
      expect(await toastAfter(server.url, sent, cookies.other)).toContain("Your comment is awaiting moderation");
      const own = await html(path, cookies.other);
      expect(own).toContain("Please approve me");
      expect(own).toContain("Awaiting moderation");
      expect(await html(path)).not.toContain("Please approve me");
    } finally {
      await setSettings({ comment_moderation: false });
    }
    await setSettings({ comments_enabled: false });
    try {
      expect(await html(path, cookies.reader)).toContain("Comments are closed.");
    } finally {
      await setSettings({ comments_enabled: true });
    }
  });
});

describe("the back office", () => {
  const PAGES = [
    "/admin/blog",
    "/admin/blog/categories",
    "/admin/blog/posts",
    "/admin/blog/posts/new",
    "/admin/blog/comments",
    "/admin/blog/settings",
  ];

  it("sends visitors to log in, refuses regular users, and shows a blog.create holder only what it may do", async () => {
    for (const path of PAGES) {
      const visitor = await page(path);
      expect(visitor.status, path).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect((await page(path, cookies.reader)).status, path).toBe(403);
    }
    const categories = await html("/admin/blog", cookies.author);
    expect(categories).toContain("Blog categories");
    expect(categories).not.toContain("Add category");
    expect((await post("/admin/blog", cookies.author, { intent: "create", name: "Nope" })).status).toBe(403);
    const list = await html("/admin/blog/posts", cookies.author);
    expect(list).toContain("New post");
    expect(list).not.toContain('value="toggle"');
    expect((await page("/admin/blog/comments", cookies.author)).status).toBe(403);
    expect((await page("/admin/blog/settings", cookies.author)).status).toBe(403);
    const nav = await html("/admin", cookies.author);
    expect(nav).toContain('href="/admin/blog/posts"');
    expect(nav).not.toContain('href="/admin/blog/comments"');
    // the dashboard's blog box: published posts for every blog holder, comments waiting for moderators
    expect(nav).toMatch(/\d+ published posts?<\/a>/);
    expect(nav).not.toContain("to moderate");
    expect(await html("/admin", cookies.admin)).toMatch(/\d+ comments? to moderate<\/a>/);
    // who may write a post may publish it (docs/runtime.md: POST /posts needs blog.create)
    const editor = await html("/admin/blog/posts/new", cookies.author);
    expect(editor).toContain("Publish now");
    expect(editor).toContain('<option value="published">');
  });

  it("creates, edits and deletes categories in dialogs chosen by the address; never under itself or its subcategories", async () => {
    const name = unique("Shipping ");
    const dialog = await html("/admin/blog?modal=create", cookies.admin);
    expect(dialog).toContain('role="dialog"');
    const created = await post("/admin/blog?modal=create", cookies.admin, {
      intent: "create",
      name,
      slug: "",
      description: "",
      parent_id: "",
      display_order: "0",
      is_visible: "on",
    });
    expect(await toastAfter(server.url, created, cookies.admin)).toContain(`Category created: ${name}`);
    const all = (await api(server.url, "/api/blog/categories", { token: admin })).body.data as Array<{
      id: number;
      name: string;
      slug: string;
      parent_id: number | null;
    }>;
    const parent = all.find((c) => c.name === name)!;
    const child = (await api(server.url, "/api/blog/categories", { token: admin, body: { name: unique("Sub "), parent_id: parent.id } }))
      .body.data;
    const edit = await html(`/admin/blog?modal=edit&categoryId=${parent.id}`, cookies.admin);
    // its own subcategory is not offered as its parent
    expect(edit).not.toContain(`<option value="${child.id}">`);
    const loop = await post(`/admin/blog?modal=edit&categoryId=${parent.id}`, cookies.admin, {
      intent: "update",
      categoryId: String(parent.id),
      name,
      parent_id: String(child.id),
      display_order: "0",
    });
    expect(loop.status).toBe(200);
    expect(await loop.text()).toContain("A category cannot be placed under one of its own subcategories");
    const empty = await post(`/admin/blog?modal=edit&categoryId=${parent.id}`, cookies.admin, {
      intent: "update",
      categoryId: String(parent.id),
      name: " ",
      display_order: "0",
    });
    expect(await empty.text()).toContain("Category name is required");
    const saved = await post(`/admin/blog?modal=edit&categoryId=${parent.id}`, cookies.admin, {
      intent: "update",
      categoryId: String(parent.id),
      name: `${name} renamed`,
      slug: "",
      display_order: "2",
    });
    expect(await toastAfter(server.url, saved, cookies.admin)).toContain(`Category saved: ${name} renamed`);
    const hidden = (await api(server.url, `/api/blog/categories/${parent.id}`, { token: admin })).body.data;
    expect(hidden).toMatchObject({ display_order: 2, is_visible: false });
    const confirm = await html(`/admin/blog?modal=delete&categoryId=${parent.id}`, cookies.admin);
    expect(confirm).toContain("Its 1 subcategory moves up one level.");
    const deleted = await post("/admin/blog", cookies.admin, { intent: "delete", categoryId: String(parent.id) });
    expect(await toastAfter(server.url, deleted, cookies.admin)).toContain("Category deleted");
    expect((await api(server.url, `/api/blog/categories/${child.id}`, { token: admin })).body.data.parent_id).toBeNull();
  });

  it("filters the post list, toggles publish (published → draft, anything else → published) and deletes after a confirmation", async () => {
    const tag = unique("Toggle");
    const live = await createPost({ title: `${tag} live` });
    const draft = await createPost({ title: `${tag} draft`, status: "draft" });
    const archived = await createPost({ title: `${tag} archived`, status: "archived" });
    const list = await html(`/admin/blog/posts?search=${tag}&status=draft`, cookies.admin);
    expect(list).toContain(`${tag} draft`);
    expect(list).not.toContain(`${tag} live`);
    expect(list).toContain(`href="/blog/${draft.slug}"`);
    const status = async (id: number) => (await api(server.url, `/api/blog/posts/id/${id}`, { token: admin })).body.data.status;
    const toggle = (id: number) =>
      post("/admin/blog/posts", cookies.admin, { intent: "toggle", postId: String(id), returnTo: `/admin/blog/posts?search=${tag}` });
    const off = await toggle(live.id);
    expect(off.headers.get("location")).toBe(`/admin/blog/posts?search=${tag}`);
    expect(await toastAfter(server.url, off, cookies.admin)).toContain(`Back to draft: ${tag} live`);
    expect(await status(live.id)).toBe("draft");
    await toggle(draft.id);
    expect(await status(draft.id)).toBe("published");
    await toggle(archived.id);
    expect(await status(archived.id)).toBe("published");
    // a draft that keeps a future time from an earlier schedule is published now, not scheduled again
    const once = await createPost({
      title: `${tag} once scheduled`,
      status: "scheduled",
      published_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await api(server.url, `/api/blog/posts/${once.id}`, { method: "PUT", token: admin, body: { status: "draft" } });
    await toggle(once.id);
    expect(await status(once.id)).toBe("published");
    expect((await page(`/blog/${once.slug}`)).status).toBe(200);
    expect((await post("/admin/blog/posts", cookies.author, { intent: "toggle", postId: String(live.id) })).status).toBe(403);
    const missing = await toggle(999999);
    expect(await toastAfter(server.url, missing, cookies.admin)).toContain(
      "Failed to update the publishing status. Check your network connection and try again.",
    );
    const confirm = await html(`/admin/blog/posts?search=${tag}&modal=delete&postId=${live.id}`, cookies.admin);
    expect(confirm).toContain(`Delete the post <strong>${tag} live</strong>`);
    const deleted = await post("/admin/blog/posts", cookies.admin, {
      intent: "delete",
      postId: String(live.id),
      returnTo: `/admin/blog/posts?search=${tag}`,
    });
    expect(await toastAfter(server.url, deleted, cookies.admin)).toContain(`Post deleted: ${tag} live`);
    expect((await api(server.url, `/api/blog/posts/id/${live.id}`, { token: admin })).status).toBe(404);
  });

  it("writes a post in the editor without JavaScript: '标题和内容为必填项', a featured image upload, publish now, save draft", async () => {
    const send = (fields: Record<string, string>, file?: Blob, language: Record<string, string> = { "Accept-Language": "en" }) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      if (file) form.append("featured_upload", file, "cover.png");
      return fetch(`${server.url}/admin/blog/posts/new`, {
        method: "POST",
        headers: { Cookie: cookies.admin, Origin: server.url, ...language },
        body: form,
        redirect: "manual",
      });
    };
    // no Accept-Language: the back office's own language, Chinese, with the spec's words,
    // once beside each field they concern (not three times)
    const missing = await send({ intent: "save", title: "", content: "" }, undefined, {});
    expect(missing.status).toBe(200);
    const refused = await missing.text();
    expect(refused).toContain('<html lang="zh-CN"');
    const shown = refused.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    expect(shown.split("标题和内容为必填项").length - 1).toBe(2);
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#0f766e" } })
      .png()
      .toBuffer();
    const title = unique("Editor post ");
    const created = await send(
      {
        intent: "publish",
        title,
        content: "<h3>Hello</h3><p>From the <em>plain</em> textarea.</p><script>alert(1)</script>",
        tags: "Editor, Plain",
        status: "draft",
      },
      new Blob([new Uint8Array(png)], { type: "image/png" }),
    );
    expect(created.status, await created.clone().text()).toBe(302);
    expect(await toastAfter(server.url, created, cookies.admin)).toContain(`Published: ${title}`);
    const id = Number(/\/admin\/blog\/posts\/(\d+)\/edit/.exec(created.headers.get("location")!)![1]);
    const saved = (await api(server.url, `/api/blog/posts/id/${id}`, { token: admin })).body.data;
    expect(saved).toMatchObject({ title, status: "published", content: "<h3>Hello</h3><p>From the <em>plain</em> textarea.</p>" });
    expect(saved.featured_image).toMatch(/^\/uploads\/blog\//);
    expect(saved.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Editor", "Plain"]);
    const publicPage = await html(`/blog/${saved.slug}`);
    expect(publicPage).toContain(`src="${saved.featured_image}"`);
    // the edit page holds the HTML in its textarea (escaped), and "Save draft" sets draft
    const edit = await html(`/admin/blog/posts/${id}/edit`, cookies.admin);
    expect(edit).toContain("&lt;h3&gt;Hello&lt;/h3&gt;");
    const form = new FormData();
    for (const [key, value] of Object.entries({
      intent: "draft",
      title,
      content: "<p>Changed</p>",
      status: "published",
      featured_image: saved.featured_image,
    }))
      form.append(key, value);
    const draft = await fetch(`${server.url}/admin/blog/posts/${id}/edit`, {
      method: "POST",
      headers: { Cookie: cookies.admin, Origin: server.url },
      body: form,
      redirect: "manual",
    });
    expect(draft.status).toBe(302);
    expect((await api(server.url, `/api/blog/posts/id/${id}`, { token: admin })).body.data).toMatchObject({
      status: "draft",
      content: "<p>Changed</p>",
    });
    const notImage = await send(
      { intent: "save", title: "With a bad file", content: "<p>x</p>" },
      new Blob(["not an image"], { type: "image/png" }),
    );
    expect(notImage.status).toBe(200);
    expect(await notImage.text()).toContain("cover.png: The file is not a JPG, PNG, WEBP or GIF image");
    expect((await page("/admin/blog/posts/999999/edit", cookies.admin)).status).toBe(404);
    expect((await page("/admin/blog/posts/abc/edit", cookies.admin)).status).toBe(404);
  });

  it("offers only draft, published and private in the editor; published with a later time is scheduled", async () => {
    const options = (text: string) => [...text.matchAll(/<option value="(draft|published|scheduled|archived|private)"/g)].map((m) => m[1]);
    expect(options(await html("/admin/blog/posts/new", cookies.admin))).toEqual(["draft", "published", "private"]);
    const title = unique("Later post ");
    const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    const form = new FormData();
    for (const [key, value] of Object.entries({
      intent: "save",
      title,
      content: "<p>Goes live tomorrow.</p>",
      status: "published",
      published_at: later,
    }))
      form.append(key, value);
    const saved = await fetch(`${server.url}/admin/blog/posts/new`, {
      method: "POST",
      headers: { Cookie: cookies.admin, Origin: server.url },
      body: form,
      redirect: "manual",
    });
    expect(saved.status, await saved.clone().text()).toBe(302);
    const id = Number(/\/admin\/blog\/posts\/(\d+)\/edit/.exec(saved.headers.get("location")!)![1]);
    expect((await api(server.url, `/api/blog/posts/id/${id}`, { token: admin })).body.data).toMatchObject({
      status: "scheduled",
      published_at: `${later}:00.000Z`,
    });
    // a scheduled post keeps its status in the editor: the select offers it beside the three
    expect(options(await html(`/admin/blog/posts/${id}/edit`, cookies.admin))).toEqual(["draft", "published", "private", "scheduled"]);
  });

  it("moderates comments from the queue, and saves the blog settings", async () => {
    const target = await createPost({ title: unique("Queued ") });
    const held = await api(server.url, `/api/blog/posts/${target.id}/comments`, {
      token: (await apiLogin(server.url, `${(await person()).username}@example.com`, "page-pass-1")).accessToken,
      body: { content: "Links https://a.example https://b.example https://c.example" },
    });
    expect(held.body.data.status).toBe("pending");
    const queue = await html("/admin/blog/comments", cookies.admin);
    expect(queue).toContain(`id="comment-${held.body.data.id}"`);
    const approved = await post("/admin/blog/comments", cookies.admin, {
      intent: "moderate",
      status: "approved",
      commentId: String(held.body.data.id),
      returnTo: "/admin/blog/comments",
    });
    expect(await toastAfter(server.url, approved, cookies.admin)).toContain("Comment marked: Approved");
    expect(await html(`/blog/${target.slug}`)).toContain("https://c.example");
    const bad = await post("/admin/blog/settings", cookies.admin, { comments_enabled: "on", posts_per_page: "0" });
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("At least 1");
    const saved = await post("/admin/blog/settings", cookies.admin, {
      comments_enabled: "on",
      comment_moderation: "on",
      posts_per_page: "7",
    });
    expect(await toastAfter(server.url, saved, cookies.admin)).toContain("Blog settings saved");
    expect((await api(server.url, "/api/blog/settings")).body.data).toEqual({
      comments_enabled: true,
      comment_moderation: true,
      posts_per_page: 7,
    });
    await setSettings({ comment_moderation: false, posts_per_page: 10 });
  });
});
