/**
 * The blog API over real HTTP against the built server: posts (statuses, visibility,
 * slugs with Chinese titles, reading time, tags), lists and their envelope, search,
 * categories (the tree rules), tags, comments (moderation, the link and flood rules,
 * replies, editing), likes, views without bots, settings, the 70-payload XSS set in
 * posts and comments, feeds with ETag/Last-Modified, the sitemap, scheduled publishing
 * (while running, and caught up at start after a stop), and the guards on every endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMENT_TAGS, findXss, XSS_PAYLOADS } from "../fixtures/xss-payloads";
import { asHtmlText, childNamed, childrenNamed, parseXml } from "../fixtures/xml";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";
import { clockPast } from "../setup/wait";

let server: TestServer;
let admin: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;
const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
const call = (path: string, options: Parameters<typeof api>[2] = {}) => api(server.url, path, options);

type Person = { id: number; token: string; username: string };
let readers: Person[] = [];
/** an admin holding blog.create only, one with blog.create and blog.edit, one with every blog permission */
let author: Person;
let editor: Person;

async function makePerson(options: { admin?: boolean; permissions?: string[] } = {}): Promise<Person> {
  const username = unique("b");
  const roles = options.admin
    ? (await call("/api/admin/roles", { token: admin })).body.data
        .filter((r: { name: string }) => r.name === "admin")
        .map((r: { id: number }) => r.id)
    : [];
  const made = await call("/api/admin/users", {
    token: admin,
    body: { username, email: `${username}@example.com`, password: "blog-pass-1", roleIds: roles },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  if (options.permissions?.length) {
    const all = (await call("/api/admin/permissions", { token: admin })).body.data as Array<{ id: number; name: string }>;
    for (const name of options.permissions) {
      const granted = await call(`/api/admin/users/${made.body.data.id}/permissions/${all.find((p) => p.name === name)!.id}`, {
        method: "POST",
        token: admin,
      });
      expect(granted.status).toBe(200);
    }
  }
  const login = await apiLogin(server.url, `${username}@example.com`, "blog-pass-1");
  return { id: made.body.data.id, token: login.accessToken, username };
}

async function createPost(body: Record<string, unknown>, token = admin) {
  const response = await call("/api/blog/posts", { token, body: { content: "<p>Body text.</p>", ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

async function createCategory(body: Record<string, unknown>) {
  const response = await call("/api/blog/categories", { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

const setSettings = async (body: Record<string, unknown>) =>
  expect((await call("/api/blog/settings", { method: "PUT", token: admin, body })).status).toBe(200);

let scheduledEarly: { id: number; slug: string; dueAt: number };

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  // due a few seconds into this file's run, checked at its end (published by the job within 60 s)
  const dueAt = Date.now() + 4000;
  const early = await createPost({ title: unique("Scheduled early "), status: "scheduled", published_at: new Date(dueAt).toISOString() });
  scheduledEarly = { id: early.id, slug: early.slug, dueAt };
  readers = await Promise.all([1, 2, 3, 4, 5].map(() => makePerson()));
  author = await makePerson({ admin: true, permissions: ["blog.create"] });
  editor = await makePerson({ admin: true, permissions: ["blog.create", "blog.edit"] });
});

afterAll(async () => {
  await server?.stop();
});

describe("posts", () => {
  it("creates a post (201) with the contract's shape, sanitised content, tags and computed slug and reading time", async () => {
    const category = await createCategory({ name: unique("Guides ") });
    const words = Array.from({ length: 450 }, (_, n) => `word${n}`).join(" ");
    const post = await createPost({
      title: "Weidian 新手指南: First Steps",
      content: `<h2 onclick="x()">Start</h2><p>${words}</p><script>alert(1)</script>`,
      excerpt: "How to start.",
      category_id: category.id,
      status: "published",
      is_featured: true,
      tags: ["Weidian", "weidian", " Beginners "],
      meta_title: "Meta title",
      meta_description: "Meta description",
    });
    expect(post).toMatchObject({
      title: "Weidian 新手指南: First Steps",
      slug: "weidian-xinshou-zhinan-first-steps",
      excerpt: "How to start.",
      content: `<h2>Start</h2><p>${words}</p>`,
      category_id: category.id,
      category_name: category.name,
      status: "published",
      is_featured: true,
      is_pinned: false,
      reading_time: 3,
      featured_image: null,
      meta_title: "Meta title",
      meta_description: "Meta description",
      view_count: 0,
      author_username: "admin",
      like_count: 0,
      comment_count: 0,
    });
    expect(post.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Beginners", "Weidian"]);
    for (const key of ["id", "published_at", "created_at", "updated_at", "author_first_name", "author_last_name"])
      expect(post).toHaveProperty(key);
    const bySlug = await call(`/api/blog/posts/${post.slug}`);
    expect(bySlug.body.data.id).toBe(post.id);
    const byId = await call(`/api/blog/posts/id/${post.id}`);
    expect(byId.body.data.slug).toBe(post.slug);
  });

  it("refuses a missing title or content with 400 '标题和内容为必填项' naming the field, and bad fields by name, creating nothing", async () => {
    const before = (await call("/api/blog/admin/posts?limit=1", { token: admin })).body.data.totalPosts;
    const both = await call("/api/blog/posts", { token: admin, body: { title: " ", content: "" } });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe("标题和内容为必填项");
    expect(fields(both.body).sort()).toEqual(["content", "title"]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ content: "<p>x</p>" }, "title"],
      [{ title: "No body" }, "content"],
      [{ title: "Only a script", content: "<script>alert(1)</script>" }, "content"],
      [{ title: "Bad status", content: "<p>x</p>", status: "live" }, "status"],
      [{ title: "Bad category", content: "<p>x</p>", category_id: 987654 }, "category_id"],
      [{ title: "Bad image", content: "<p>x</p>", featured_image: "javascript:alert(1)" }, "featured_image"],
      [{ title: "Plain http image", content: "<p>x</p>", featured_image: "http://img.example/a.png" }, "featured_image"],
      [{ title: "Bad date", content: "<p>x</p>", published_at: "tomorrow" }, "published_at"],
      [{ title: "No time", content: "<p>x</p>", status: "scheduled" }, "published_at"],
      [{ title: "Bad slug", content: "<p>x</p>", slug: "a/b?c" }, "slug"],
      [{ title: "Bad reading time", content: "<p>x</p>", reading_time: -2 }, "reading_time"],
    ];
    for (const [body, field] of cases) {
      const response = await call("/api/blog/posts", { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(fields(response.body), JSON.stringify(body)).toContain(field);
    }
    expect((await call("/api/blog/admin/posts?limit=1", { token: admin })).body.data.totalPosts).toBe(before);
  });

  it("makes slugs by the spec's rule, unique with -2 and -3", async () => {
    const cases: Array<[string, string | RegExp]> = [
      ["淘宝购物指南", "taobao-gouwu-zhinan"],
      ["How to read QC photos?!", "how-to-read-qc-photos"],
      ["Café résumé", "cafe-resume"],
    ];
    for (const [title, slug] of cases) expect((await createPost({ title })).slug).toBe(slug);
    const before = Date.now();
    const chinese = await createPost({ title: "我的第一篇文章" });
    const after = Date.now();
    expect(chinese.slug).toMatch(/^article-\d{6}$/);
    const digits = Number(chinese.slug.slice(-6));
    const window = [before, after].map((t) => t % 1_000_000);
    expect(window[0] <= window[1] ? digits >= window[0] && digits <= window[1] : digits >= window[0] || digits <= window[1]).toBe(true);
    expect((await createPost({ title: "淘宝购物指南" })).slug).toBe("taobao-gouwu-zhinan-2");
    expect((await createPost({ title: "淘宝 购物 指南" })).slug).toBe("taobao-gouwu-zhinan-3");
    // a slug given by hand is cleaned and kept unique too
    const given = await createPost({ title: "Anything", slug: "My Custom Slug" });
    expect(given.slug).toBe("my-custom-slug");
    expect((await createPost({ title: "Other", slug: "my-custom-slug" })).slug).toBe("my-custom-slug-2");
    // editing keeps the slug unless asked; a taken one gets the next free number
    const edited = await call(`/api/blog/posts/${given.id}`, { method: "PUT", token: admin, body: { title: "Renamed" } });
    expect(edited.body.data.slug).toBe("my-custom-slug");
    const moved = await call(`/api/blog/posts/${given.id}`, { method: "PUT", token: admin, body: { slug: "taobao-gouwu-zhinan" } });
    expect(moved.body.data.slug).toBe("taobao-gouwu-zhinan-4");
  });

  it("never gives a post the slug of a list address (featured, popular, search): it would be unreachable by slug", async () => {
    const featured = await createPost({ title: "Featured", status: "published" });
    expect(featured.slug).toBe("featured-2");
    const popular = await createPost({ title: "Popular!", slug: "popular", status: "published" });
    expect(popular.slug).toBe("popular-2");
    const search = await createPost({ title: "Anything", status: "published" });
    const moved = await call(`/api/blog/posts/${search.id}`, { method: "PUT", token: admin, body: { slug: "Search" } });
    expect(moved.body.data.slug).toBe("search-2");
    for (const post of [featured, popular, moved.body.data])
      expect((await call(`/api/blog/posts/${post.slug}`)).body.data.id).toBe(post.id);
    expect(Array.isArray((await call("/api/blog/posts/featured")).body.data)).toBe(true);
  });

  it("updates only the fields given, recomputes the reading time, replaces tags, and deletes", async () => {
    const post = await createPost({ title: "Editable", tags: ["One", "Two"], status: "published" });
    const longer = `<p>${"word ".repeat(650)}</p>`;
    const updated = await call(`/api/blog/posts/${post.id}`, {
      method: "PUT",
      token: admin,
      body: { content: longer, tags: ["Two", "Three"] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: "Editable", reading_time: 4, status: "published", published_at: post.published_at });
    expect(updated.body.data.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Three", "Two"]);
    const tags = (await call("/api/blog/tags")).body.data as Array<{ name: string }>;
    expect(tags.some((t) => t.name === "One")).toBe(false);
    const bad = await call(`/api/blog/posts/${post.id}`, { method: "PUT", token: admin, body: { title: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("标题和内容为必填项");
    expect((await call(`/api/blog/posts/${post.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await call(`/api/blog/posts/id/${post.id}`, { token: admin })).status).toBe(404);
    expect((await call(`/api/blog/posts/${post.id}`, { method: "DELETE", token: admin })).status).toBe(404);
  });
});

describe("statuses and visibility", () => {
  it("shows visitors only published posts whose time has come; blog.edit holders see all", async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const made = {
      draft: await createPost({ title: unique("Draft ") }),
      published: await createPost({ title: unique("Published "), status: "published" }),
      private: await createPost({ title: unique("Private "), status: "private" }),
      archived: await createPost({ title: unique("Archived "), status: "archived" }),
      scheduled: await createPost({ title: unique("Scheduled "), status: "scheduled", published_at: future }),
      // published with a future time is scheduled in truth
      later: await createPost({ title: unique("Later "), status: "published", published_at: future }),
    };
    expect(made.draft.status).toBe("draft");
    expect(made.draft.published_at).toBeNull();
    expect(made.later.status).toBe("scheduled");
    const list = (await call("/api/blog/posts?limit=50")).body.data.posts.map((p: { id: number }) => p.id);
    for (const [kind, post] of Object.entries(made)) {
      const visible = kind === "published";
      expect((await call(`/api/blog/posts/${post.slug}`)).status, kind).toBe(visible ? 200 : 404);
      expect((await call(`/api/blog/posts/id/${post.id}`, { token: readers[0].token })).status, kind).toBe(visible ? 200 : 404);
      expect(list.includes(post.id), kind).toBe(visible);
      expect((await call(`/api/blog/posts/id/${post.id}`, { token: editor.token })).status, kind).toBe(200);
      expect((await call(`/api/blog/posts/${post.slug}`, { token: author.token })).status, `${kind} for blog.create only`).toBe(
        visible ? 200 : 404,
      );
    }
  });

  it("publishes with PUT /publish (blog.publish): now unless timed, or the status given", async () => {
    const post = await createPost({ title: unique("To publish ") });
    expect((await call(`/api/blog/posts/${post.id}/publish`, { method: "PUT", token: editor.token })).status).toBe(403);
    const before = Date.now();
    const published = await call(`/api/blog/posts/${post.id}/publish`, { method: "PUT", token: admin });
    expect(published.body.data.status).toBe("published");
    expect(Date.parse(published.body.data.published_at)).toBeGreaterThanOrEqual(before - 5);
    expect((await call(`/api/blog/posts/${post.slug}`)).status).toBe(200);
    const archived = await call(`/api/blog/posts/${post.id}/publish`, { method: "PUT", token: admin, body: { status: "archived" } });
    expect(archived.body.data.status).toBe("archived");
    expect((await call(`/api/blog/posts/${post.slug}`)).status).toBe(404);
    const bad = await call(`/api/blog/posts/${post.id}/publish`, { method: "PUT", token: admin, body: { status: "gone" } });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toContain("status");
  });

  it("publishes now with PUT /publish a draft that keeps a future time from an earlier schedule (never left scheduled)", async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const once = await createPost({ title: unique("Once scheduled "), status: "scheduled", published_at: future });
    const back = await call(`/api/blog/posts/${once.id}`, { method: "PUT", token: admin, body: { status: "draft" } });
    expect(back.body.data).toMatchObject({ status: "draft", published_at: future });
    const before = Date.now();
    const published = await call(`/api/blog/posts/${once.id}/publish`, { method: "PUT", token: admin });
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe("published");
    expect(Date.parse(published.body.data.published_at)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(published.body.data.published_at)).toBeLessThanOrEqual(Date.now());
    expect((await call(`/api/blog/posts/${once.slug}`)).status).toBe(200);
    // a time given with the call still schedules
    const timed = await call(`/api/blog/posts/${once.id}/publish`, { method: "PUT", token: admin, body: { published_at: future } });
    expect(timed.body.data).toMatchObject({ status: "scheduled", published_at: future });
  });

  it("keeps the stored excerpt in the post's JSON (null when none), so a full update sends back what it read", async () => {
    const post = await createPost({ title: unique("No excerpt "), content: "<p>First words of the body.</p>", status: "published" });
    expect(post.excerpt).toBeNull();
    const read = (await call(`/api/blog/posts/id/${post.id}`, { token: admin })).body.data;
    expect(read.excerpt).toBeNull();
    // the spec's list toggle reloads the whole post and sends it back as a full update
    const body = Object.fromEntries(
      [
        "title",
        "slug",
        "excerpt",
        "content",
        "category_id",
        "status",
        "is_featured",
        "is_pinned",
        "reading_time",
        "featured_image",
        "meta_title",
        "meta_description",
      ].map((key) => [key, read[key]]),
    );
    const full = await call(`/api/blog/posts/${post.id}`, { method: "PUT", token: admin, body: { ...body, status: "draft" } });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.data).toMatchObject({ excerpt: null, status: "draft", slug: post.slug });
    const listed = (await call(`/api/blog/admin/posts?search=${encodeURIComponent(post.title)}`, { token: admin })).body.data.posts;
    expect(listed.map((p: { excerpt: string | null }) => p.excerpt)).toEqual([null]);
  });

  it("takes back a whole post as its JSON answered it (a full update, tags as objects included), changing only what differs", async () => {
    const post = await createPost({ title: unique("Round trip "), excerpt: "Kept.", status: "published", tags: ["Alpha", "Beta"] });
    const read = (await call(`/api/blog/posts/id/${post.id}`, { token: admin })).body.data;
    const back = await call(`/api/blog/posts/${post.id}`, { method: "PUT", token: admin, body: { ...read, status: "draft" } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data).toMatchObject({
      status: "draft",
      title: read.title,
      slug: read.slug,
      excerpt: "Kept.",
      content: read.content,
      reading_time: read.reading_time,
    });
    expect(back.body.data.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Alpha", "Beta"]);
    // and plain names still work beside objects
    const mixed = await call(`/api/blog/posts/${post.id}`, {
      method: "PUT",
      token: admin,
      body: { tags: [{ id: 1, name: "Alpha", slug: "alpha" }, "Gamma"] },
    });
    expect(mixed.body.data.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Alpha", "Gamma"]);
    expect((await call(`/api/blog/posts/${post.id}`, { method: "PUT", token: admin, body: { tags: [{ id: 1 }] } })).status).toBe(400);
    // the spec's fallback: the list row's data, a whole post too (content included)
    const row = (await call(`/api/blog/admin/posts?search=${encodeURIComponent(post.title)}`, { token: admin })).body.data.posts[0];
    expect(row.content).toBe(read.content);
    const fromRow = await call(`/api/blog/posts/${post.id}`, { method: "PUT", token: admin, body: { ...row, status: "published" } });
    expect(fromRow.status, JSON.stringify(fromRow.body)).toBe(200);
    expect(fromRow.body.data).toMatchObject({ status: "published", content: read.content, excerpt: "Kept." });
  });

  it("gives each call the permission docs/runtime.md names: POST blog.create, PUT blog.edit (status included), PUT /publish blog.publish", async () => {
    const draft = await createPost({ title: unique("Author draft ") }, author.token);
    expect(draft.status).toBe("draft");
    // blog.create may create a post in any status, a live one included
    const live = await call("/api/blog/posts", {
      token: author.token,
      body: { title: unique("Straight live "), content: "<p>x</p>", status: "published" },
    });
    expect(live.status, JSON.stringify(live.body)).toBe(201);
    expect(live.body.data.status).toBe("published");
    expect((await call(`/api/blog/posts/${live.body.data.slug}`)).status).toBe(200);
    // editing needs blog.edit
    expect((await call(`/api/blog/posts/${draft.id}`, { method: "PUT", token: author.token, body: { title: "Changed" } })).status).toBe(
      403,
    );
    const edited = await call(`/api/blog/posts/${draft.id}`, {
      method: "PUT",
      token: editor.token,
      body: { title: "Changed by the editor" },
    });
    expect(edited.status).toBe(200);
    // and a full update with a new status is an edit: the spec's list toggle publishes that way
    const published = await call(`/api/blog/posts/${draft.id}`, { method: "PUT", token: editor.token, body: { status: "published" } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.status).toBe("published");
    const unpublished = await call(`/api/blog/posts/${draft.id}`, { method: "PUT", token: editor.token, body: { status: "draft" } });
    expect(unpublished.body.data.status).toBe("draft");
    // the publish call is blog.publish's own
    expect((await call(`/api/blog/posts/${draft.id}/publish`, { method: "PUT", token: editor.token, body: {} })).status).toBe(403);
    expect((await call(`/api/blog/posts/${draft.id}`, { method: "DELETE", token: editor.token })).status).toBe(403);
    expect((await call(`/api/blog/posts/id/${draft.id}`, { token: admin })).body.data).toMatchObject({
      status: "draft",
      title: "Changed by the editor",
    });
  });
});

describe("lists, search, categories and navigation", () => {
  let tree: { top: { id: number; slug: string }; child: { id: number; slug: string }; grandchild: { id: number; slug: string } };
  let tagged: string;
  const listed: Array<{ id: number; slug: string; title: string }> = [];

  beforeAll(async () => {
    const top = await createCategory({ name: unique("Top ") });
    const child = await createCategory({ name: unique("Child "), parent_id: top.id });
    const grandchild = await createCategory({ name: unique("Grandchild "), parent_id: child.id });
    tree = { top, child, grandchild };
    tagged = unique("Tag");
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    for (let n = 0; n < 7; n++) {
      listed.push(
        await createPost({
          title: `Listed ${n} ${tagged}`,
          content: `<p>Listed post number ${n} about ${n % 2 ? "长城卫衣 hoodies" : "运动鞋 sneakers"} ${tagged}</p>`,
          status: "published",
          published_at: new Date(base + n * 86_400_000).toISOString(),
          category_id: [top.id, child.id, grandchild.id][n % 3],
          tags: [tagged],
          is_featured: n === 2,
        }),
      );
    }
  });

  it("answers lists as {posts, page, totalPages, totalPosts, hasNext, hasPrev}, newest first, with the settings' page size by default", async () => {
    const first = await call(`/api/blog/posts/tag/${tagged.toLowerCase()}?limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, totalPages: 3, totalPosts: 7, hasNext: true, hasPrev: false });
    expect(first.body.data.posts.map((p: { id: number }) => p.id)).toEqual([listed[6].id, listed[5].id, listed[4].id]);
    expect(first.body.data.posts[0].content).toContain("Listed post number 6");
    const last = await call(`/api/blog/posts/tag/${tagged.toLowerCase()}?limit=3&page=3`);
    expect(last.body.data).toMatchObject({ page: 3, hasNext: false, hasPrev: true });
    expect(last.body.data.posts).toHaveLength(1);
    await setSettings({ posts_per_page: 2 });
    expect((await call(`/api/blog/posts/tag/${tagged.toLowerCase()}`)).body.data.posts).toHaveLength(2);
    await setSettings({ posts_per_page: 10 });
    expect((await call("/api/blog/posts/tag/no-such-tag")).status).toBe(404);
  });

  it("lists a category's posts with its subcategories' (any depth); hidden categories are 404 for visitors", async () => {
    const top = await call(`/api/blog/posts/category/${tree.top.slug}?limit=50`);
    expect(top.body.data.totalPosts).toBe(7);
    expect((await call(`/api/blog/posts/category/${tree.child.slug}?limit=50`)).body.data.totalPosts).toBe(4);
    expect((await call(`/api/blog/posts/category/${tree.grandchild.slug}?limit=50`)).body.data.totalPosts).toBe(2);
    await call(`/api/blog/categories/${tree.grandchild.id}`, { method: "PUT", token: admin, body: { is_visible: false } });
    expect((await call(`/api/blog/posts/category/${tree.grandchild.slug}`)).status).toBe(404);
    expect((await call("/api/blog/categories")).body.data.some((c: { id: number }) => c.id === tree.grandchild.id)).toBe(false);
    expect((await call("/api/blog/categories", { token: admin })).body.data.some((c: { id: number }) => c.id === tree.grandchild.id)).toBe(
      true,
    );
    await call(`/api/blog/categories/${tree.grandchild.id}`, { method: "PUT", token: admin, body: { is_visible: true } });
    const categories = (await call("/api/blog/categories")).body.data as Array<{
      id: number;
      parent_id: number | null;
      post_count: number;
    }>;
    expect(categories.find((c) => c.id === tree.child.id)).toMatchObject({ parent_id: tree.top.id, post_count: 2 });
  });

  it("searches title, excerpt and text: 3+ characters through the index, shorter Chinese terms as text, best match first", async () => {
    const english = await call(`/api/blog/posts/search?q=${encodeURIComponent(`hoodies ${tagged}`)}&limit=50`);
    expect(english.body.data.posts.map((p: { id: number }) => p.id).sort()).toEqual([listed[1].id, listed[3].id, listed[5].id].sort());
    const chinese = await call(`/api/blog/posts/search?q=${encodeURIComponent(`卫衣 ${tagged}`)}&limit=50`);
    expect(chinese.body.data.totalPosts).toBe(3);
    const long = await call(`/api/blog/posts/search?q=${encodeURIComponent(`运动鞋 ${tagged}`)}&limit=50`);
    expect(long.body.data.totalPosts).toBe(4);
    const title = await call(`/api/blog/posts/search?q=${encodeURIComponent(`Listed 3 ${tagged}`)}`);
    expect(title.body.data.posts[0].id).toBe(listed[3].id);
    expect((await call(`/api/blog/posts/search?q=${encodeURIComponent('"zzqq" OR x*')}`)).body.data.totalPosts).toBe(0);
    const empty = await call("/api/blog/posts/search?q=%20");
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toContain("q");
  });

  it("answers featured and popular posts, and the previous and next post by publication time", async () => {
    const featured = (await call("/api/blog/posts/featured?limit=20")).body.data as Array<{
      id: number;
      is_featured: boolean;
      content: string;
    }>;
    expect(featured.some((p) => p.id === listed[2].id)).toBe(true);
    expect(featured.every((p) => p.is_featured)).toBe(true);
    for (let n = 0; n < 3; n++)
      await call(`/api/blog/posts/${listed[0].id}/view`, { method: "PUT", headers: { "User-Agent": `viewer-${n}-${unique("ua")}` } });
    const popular = (await call("/api/blog/posts/popular?limit=1")).body.data;
    expect(popular).toHaveLength(1);
    expect(popular[0].view_count).toBeGreaterThanOrEqual(3);
    const nav = await call(`/api/blog/posts/${listed[3].id}/navigation`);
    expect(nav.body.data).toEqual({
      previous: { id: listed[2].id, slug: listed[2].slug, title: listed[2].title },
      next: { id: listed[4].id, slug: listed[4].slug, title: listed[4].title },
    });
    expect((await call(`/api/blog/posts/${listed[0].id}/navigation`)).body.data.previous?.id).not.toBe(listed[1].id);
    expect((await call("/api/blog/posts/999999/navigation")).status).toBe(404);
  });

  it("lists every status for the back office with search, category slug and status filters", async () => {
    const draft = await createPost({ title: `Filtered draft ${tagged}`, category_id: tree.child.id });
    const query = (q: string) => call(`/api/blog/admin/posts?${q}`, { token: admin });
    const bySearch = await query(`search=${tagged}&limit=50`);
    expect(bySearch.body.data.totalPosts).toBe(8);
    expect((await query(`search=${tagged}&status=draft`)).body.data.posts.map((p: { id: number }) => p.id)).toEqual([draft.id]);
    expect((await query(`search=${tagged}&category=${tree.child.slug}&limit=50`)).body.data.totalPosts).toBe(5);
    expect((await query(`search=${tagged}&category=${tree.grandchild.slug}&status=published&limit=50`)).body.data.totalPosts).toBe(2);
    expect(bySearch.body.data.statusCounts.draft).toBeGreaterThanOrEqual(1);
    expect((await call("/api/blog/admin/posts")).status).toBe(401);
    expect((await call("/api/blog/admin/posts", { token: readers[0].token })).status).toBe(403);
    expect((await call("/api/blog/admin/posts", { token: author.token })).status).toBe(200);
  });
});

describe("categories", () => {
  it("makes slugs from names (Chinese kept), editable and unique; a category is never its own parent or under its descendants", async () => {
    const name = unique("新手 指南 ");
    const first = await createCategory({ name });
    expect(first.slug).toBe(name.toLowerCase().replace(/\s+/g, "-").replace(/-+$/, ""));
    const again = await createCategory({ name });
    expect(again.slug).toBe(`${first.slug}-2`);
    const custom = await createCategory({ name: "Anything", slug: unique("Custom Slug ") });
    expect(custom.slug).toMatch(/^custom-slug-/);
    expect(custom).toMatchObject({ display_order: 0, is_visible: true, parent_id: null, post_count: 0 });
    const child = await createCategory({ name: unique("Child "), parent_id: first.id, display_order: 3 });
    const grandchild = await createCategory({ name: unique("Grandchild "), parent_id: child.id });
    const own = await call(`/api/blog/categories/${first.id}`, { method: "PUT", token: admin, body: { parent_id: first.id } });
    expect(own.status).toBe(400);
    expect(own.body.errors).toEqual([{ field: "parent_id", message: "A category cannot be its own parent" }]);
    const loop = await call(`/api/blog/categories/${first.id}`, { method: "PUT", token: admin, body: { parent_id: grandchild.id } });
    expect(loop.status).toBe(400);
    expect(fields(loop.body)).toEqual(["parent_id"]);
    const missing = await call("/api/blog/categories", { token: admin, body: { name: "" } });
    expect(missing.status).toBe(400);
    expect(fields(missing.body)).toEqual(["name"]);
    expect((await call(`/api/blog/categories/${child.id}`, { method: "PUT", token: admin, body: { display_order: "x" } })).status).toBe(
      400,
    );
    // moving up a level is fine
    const moved = await call(`/api/blog/categories/${grandchild.id}`, { method: "PUT", token: admin, body: { parent_id: first.id } });
    expect(moved.body.data.parent_id).toBe(first.id);
  });

  it("deletes a category: its subcategories move up to its parent, its posts become uncategorised", async () => {
    const top = await createCategory({ name: unique("Doomed parent ") });
    const middle = await createCategory({ name: unique("Doomed "), parent_id: top.id });
    const below = await createCategory({ name: unique("Survivor "), parent_id: middle.id });
    const post = await createPost({ title: unique("Filed "), category_id: middle.id, status: "published" });
    expect((await call(`/api/blog/categories/${middle.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await call(`/api/blog/categories/${below.id}`)).body.data.parent_id).toBe(top.id);
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.category_id).toBeNull();
    expect((await call(`/api/blog/categories/${middle.id}`, { method: "DELETE", token: admin })).status).toBe(404);
  });

  it("needs blog.manage_categories to change categories", async () => {
    const category = await createCategory({ name: unique("Guarded ") });
    for (const [method, path, body] of [
      ["POST", "/api/blog/categories", { name: "No" }],
      ["PUT", `/api/blog/categories/${category.id}`, { name: "No" }],
      ["DELETE", `/api/blog/categories/${category.id}`, undefined],
    ] as const) {
      expect((await call(path, { method, body })).status, `${method} ${path}`).toBe(401);
      for (const token of [readers[0].token, editor.token])
        expect((await call(path, { method, body, token })).status, `${method} ${path}`).toBe(403);
    }
  });

  it("lists tags with their public post counts", async () => {
    const tag = unique("Counted");
    await createPost({ title: unique("Tagged live "), tags: [tag], status: "published" });
    await createPost({ title: unique("Tagged draft "), tags: [tag] });
    const found = ((await call("/api/blog/tags")).body.data as Array<{ name: string; slug: string; post_count: number; id: number }>).find(
      (t) => t.name === tag,
    );
    expect(found).toMatchObject({ slug: tag.toLowerCase(), post_count: 1 });
    expect(typeof found!.id).toBe("number");
  });
});

describe("comments and likes", () => {
  let post: { id: number; slug: string };
  let firstComment: { id: number };

  beforeAll(async () => {
    post = await createPost({ title: unique("Commented "), status: "published" });
  });

  it("posts a comment (201, approved), refuses the same user again within 15 s (429), and shows it to everyone", async () => {
    const created = await call(`/api/blog/posts/${post.id}/comments`, {
      token: readers[0].token,
      body: { content: "First!\n\nSee https://example.com/qc for photos." },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      post_id: post.id,
      parent_id: null,
      status: "approved",
      author_username: readers[0].username,
      like_count: 0,
      content:
        '<p>First!</p><p>See <a href="https://example.com/qc" rel="ugc nofollow noopener noreferrer">https://example.com/qc</a> for photos.</p>',
    });
    firstComment = created.body.data;
    const again = await call(`/api/blog/posts/${post.id}/comments`, { token: readers[0].token, body: { content: "Second, too soon" } });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/wait \d+ s/);
    const list = (await call(`/api/blog/posts/${post.id}/comments`)).body.data as Array<{ id: number }>;
    expect(list.map((c) => c.id)).toEqual([firstComment.id]);
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.comment_count).toBe(1);
  });

  it("holds a comment with more than 2 links for moderation even when moderation is off; only its author sees it", async () => {
    const links = "One https://a.example two https://b.example three https://c.example";
    const held = await call(`/api/blog/posts/${post.id}/comments`, { token: readers[1].token, body: { content: links } });
    expect(held.status).toBe(201);
    expect(held.body.data.status).toBe("pending");
    expect(held.body.message).toMatch(/awaiting moderation/);
    const two = await call(`/api/blog/posts/${post.id}/comments`, {
      token: readers[2].token,
      body: { content: "Just https://a.example and https://b.example" },
    });
    expect(two.body.data.status).toBe("approved");
    const ids = async (token?: string) =>
      ((await call(`/api/blog/posts/${post.id}/comments`, { token })).body.data as Array<{ id: number }>).map((c) => c.id);
    expect(await ids(readers[1].token)).toContain(held.body.data.id);
    expect(await ids(readers[2].token)).not.toContain(held.body.data.id);
    expect(await ids()).not.toContain(held.body.data.id);
    // moderation (blog.edit) approves it
    expect(
      (await call(`/api/blog/comments/${held.body.data.id}/moderate`, { method: "PUT", token: author.token, body: { status: "approved" } }))
        .status,
    ).toBe(403);
    const approved = await call(`/api/blog/comments/${held.body.data.id}/moderate`, {
      method: "PUT",
      token: editor.token,
      body: { status: "approved" },
    });
    expect(approved.body.data.status).toBe("approved");
    expect(await ids()).toContain(held.body.data.id);
    const queue = await call("/api/blog/admin/comments?status=approved&limit=50", { token: admin });
    expect(
      queue.body.data.comments.some((c: { id: number; post_slug: string }) => c.id === held.body.data.id && c.post_slug === post.slug),
    ).toBe(true);
    expect(
      (await call(`/api/blog/comments/${held.body.data.id}/moderate`, { method: "PUT", token: admin, body: { status: "deleted" } })).status,
    ).toBe(400);
  });

  it("holds every comment when moderation is on (answering 'pending'); spam and rejected ones stay hidden", async () => {
    await setSettings({ comment_moderation: true });
    try {
      const pending = await call(`/api/blog/posts/${post.id}/comments`, { token: readers[3].token, body: { content: "Moderate me" } });
      expect(pending.body.data.status).toBe("pending");
      const queue = (await call("/api/blog/admin/comments", { token: admin })).body.data;
      expect(queue.comments.map((c: { id: number }) => c.id)).toContain(pending.body.data.id);
      expect(queue.counts.pending).toBeGreaterThanOrEqual(1);
      await call(`/api/blog/comments/${pending.body.data.id}/moderate`, { method: "PUT", token: admin, body: { status: "spam" } });
      expect(
        ((await call(`/api/blog/posts/${post.id}/comments`, { token: readers[3].token })).body.data as Array<{ id: number }>).map(
          (c) => c.id,
        ),
      ).not.toContain(pending.body.data.id);
    } finally {
      await setSettings({ comment_moderation: false });
    }
  });

  it("threads replies one level deep, and refuses replies to comments of other posts", async () => {
    const reply = await call(`/api/blog/posts/${post.id}/comments`, {
      token: readers[4].token,
      body: { content: "A reply", parent_id: firstComment.id },
    });
    expect(reply.body.data.parent_id).toBe(firstComment.id);
    const other = await createPost({ title: unique("Other post "), status: "published" });
    const wrong = await call(`/api/blog/posts/${other.id}/comments`, {
      token: admin,
      body: { content: "Wrong thread", parent_id: firstComment.id },
    });
    expect(wrong.status).toBe(400);
    expect(fields(wrong.body)).toContain("parent_id");
    // a reply to a reply goes under the top comment
    const nested = await call(`/api/blog/posts/${post.id}/comments`, {
      token: admin,
      body: { content: "Reply to the reply", parent_id: reply.body.data.id },
    });
    expect(nested.status).toBe(201);
    expect(nested.body.data.parent_id).toBe(firstComment.id);
  });

  it("lets the author or a blog.edit holder edit and delete a comment; others get 403", async () => {
    const edit = await call(`/api/blog/comments/${firstComment.id}`, {
      method: "PUT",
      token: readers[0].token,
      body: { content: "Edited <b>text</b>" },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.content).toBe("<p>Edited &lt;b&gt;text&lt;/b&gt;</p>");
    expect(
      (await call(`/api/blog/comments/${firstComment.id}`, { method: "PUT", token: readers[1].token, body: { content: "Hijack" } })).status,
    ).toBe(403);
    expect((await call(`/api/blog/comments/${firstComment.id}`, { method: "DELETE", token: readers[1].token })).status).toBe(403);
    expect(
      (
        await call(`/api/blog/comments/${firstComment.id}`, {
          method: "PUT",
          token: readers[0].token,
          body: { content: "<p><script>x</script></p>" },
        })
      ).status,
    ).toBe(400);
    expect((await call(`/api/blog/comments/${firstComment.id}`, { method: "PUT", body: { content: "Anonymous" } })).status).toBe(401);
    const doomed = await call(`/api/blog/posts/${post.id}/comments`, { token: editor.token, body: { content: "To be deleted" } });
    expect((await call(`/api/blog/comments/${doomed.body.data.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    expect((await call(`/api/blog/comments/${doomed.body.data.id}`, { method: "DELETE", token: admin })).status).toBe(404);
  });

  it("refuses comments when they are closed, on posts a reader cannot see, empty or too long", async () => {
    await setSettings({ comments_enabled: false });
    try {
      const closed = await call(`/api/blog/posts/${post.id}/comments`, { token: readers[2].token, body: { content: "Closed?" } });
      expect(closed.status).toBe(403);
      expect(closed.body.message).toBe("Comments are closed");
    } finally {
      await setSettings({ comments_enabled: true });
    }
    const draft = await createPost({ title: unique("Hidden ") });
    expect((await call(`/api/blog/posts/${draft.id}/comments`, { token: readers[2].token, body: { content: "Sneaky" } })).status).toBe(404);
    expect((await call(`/api/blog/posts/${draft.id}/comments`, { token: readers[2].token })).status).toBe(404);
    for (const content of ["", "   ", "x".repeat(5001)]) {
      const response = await call(`/api/blog/posts/${post.id}/comments`, { token: readers[2].token, body: { content } });
      expect(response.status).toBe(400);
      expect(fields(response.body)).toContain("content");
    }
    expect((await call(`/api/blog/posts/${post.id}/comments`, { body: { content: "Anonymous" } })).status).toBe(401);
  });

  it("likes a post and a comment once per user; a second call takes it back", async () => {
    const like = () => call(`/api/blog/posts/${post.id}/like`, { token: readers[0].token, body: { type: "like" } });
    expect((await like()).body.data).toEqual({ liked: true, like_count: 1 });
    expect((await call(`/api/blog/posts/${post.id}/like`, { method: "POST", token: readers[1].token })).body.data).toEqual({
      liked: true,
      like_count: 2,
    });
    expect((await like()).body.data).toEqual({ liked: false, like_count: 1 });
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.like_count).toBe(1);
    expect((await call(`/api/blog/posts/${post.id}/like`, { token: readers[0].token, body: { type: "love" } })).status).toBe(400);
    expect((await call(`/api/blog/posts/${post.id}/like`, { method: "POST" })).status).toBe(401);
    const commentLike = await call(`/api/blog/comments/${firstComment.id}/like`, { method: "POST", token: readers[2].token });
    expect(commentLike.body.data).toEqual({ liked: true, like_count: 1 });
    const seen = (
      (await call(`/api/blog/posts/${post.id}/comments`, { token: readers[2].token })).body.data as Array<{
        id: number;
        like_count: number;
        liked: boolean;
      }>
    ).find((c) => c.id === firstComment.id);
    expect(seen).toMatchObject({ like_count: 1, liked: true });
    expect((await call(`/api/blog/comments/${firstComment.id}/like`, { method: "POST", token: readers[2].token })).body.data).toEqual({
      liked: false,
      like_count: 0,
    });
    expect((await call("/api/blog/comments/999999/like", { method: "POST", token: readers[2].token })).status).toBe(404);
  });

  it("a refused like (a post that is not there) keeps the pages stored for visitors; a real one renews them", async () => {
    const post = await createPost({ title: unique("Stays kept "), status: "published" });
    const page = `${server.url}/blog/${post.slug}`;
    const reader = { "User-Agent": "Mozilla/5.0 steady-reader" };
    for (let n = 0; n < 3; n++) await fetch(page, { headers: reader });
    expect((await fetch(page, { headers: reader })).headers.get("x-page-cache")).toBe("hit");
    expect((await call("/api/blog/posts/999999/like", { method: "POST", token: readers[3].token })).status).toBe(404);
    expect((await call("/api/blog/comments/999999/like", { method: "POST", token: readers[3].token })).status).toBe(404);
    expect((await fetch(page, { headers: reader })).headers.get("x-page-cache")).toBe("hit");
    expect((await call(`/api/blog/posts/${post.id}/like`, { method: "POST", token: readers[3].token })).status).toBe(200);
    const renewed = await fetch(page, { headers: reader });
    expect(renewed.headers.get("x-page-cache")).toBeNull();
    expect(await renewed.text()).toContain("1 like");
  });

  it("limits likes to 60 in 10 minutes per user (429), taking likes back included", async () => {
    const person = await makePerson();
    const post = await createPost({ title: unique("Much liked "), status: "published" });
    for (let n = 1; n <= 60; n++)
      expect((await call(`/api/blog/posts/${post.id}/like`, { method: "POST", token: person.token })).status, `like ${n}`).toBe(200);
    const refused = await call(`/api/blog/posts/${post.id}/like`, { method: "POST", token: person.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    // 60 toggles: back where it started
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.like_count).toBe(0);
  });
});

describe("views", () => {
  it("counts a view once per reader in 30 minutes, not for crawlers or incrementView=false", async () => {
    const post = await createPost({ title: unique("Viewed "), status: "published" });
    const view = (headers: Record<string, string>, query = "") =>
      call(`/api/blog/posts/${post.id}/view${query}`, { method: "PUT", headers });
    expect((await view({ "User-Agent": "Mozilla/5.0 reader-a" })).body).toEqual({ success: true, counted: true });
    expect((await view({ "User-Agent": "Mozilla/5.0 reader-a" })).body.counted).toBe(false);
    expect((await view({ "User-Agent": "Mozilla/5.0 reader-b" })).body.counted).toBe(true);
    expect((await view({ "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" })).body.counted).toBe(
      false,
    );
    expect((await view({ "User-Agent": "Mozilla/5.0 reader-c" }, "?incrementView=false")).body.counted).toBe(false);
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.view_count).toBe(2);
    const draft = await createPost({ title: unique("Unseen ") });
    expect((await call(`/api/blog/posts/${draft.id}/view`, { method: "PUT" })).status).toBe(404);
  });
});

describe("settings", () => {
  it("answers the settings to everyone and changes them for blog.edit holders, refusing bad values", async () => {
    expect((await call("/api/blog/settings")).body.data).toEqual({ comments_enabled: true, comment_moderation: false, posts_per_page: 10 });
    expect((await call("/api/blog/settings", { method: "PUT", body: { posts_per_page: 5 } })).status).toBe(401);
    expect((await call("/api/blog/settings", { method: "PUT", token: author.token, body: { posts_per_page: 5 } })).status).toBe(403);
    for (const posts_per_page of [0, 51, "many"]) {
      const bad = await call("/api/blog/settings", { method: "PUT", token: admin, body: { posts_per_page } });
      expect(bad.status).toBe(400);
      expect(fields(bad.body)).toEqual(["posts_per_page"]);
    }
    const saved = await call("/api/blog/settings", { method: "PUT", token: editor.token, body: { posts_per_page: 12 } });
    expect(saved.body.data).toEqual({ comments_enabled: true, comment_moderation: false, posts_per_page: 12 });
    await setSettings({ posts_per_page: 10 });
  });
});

describe("HTML safety", () => {
  it(`lets none of the ${XSS_PAYLOADS.length} XSS payloads through in posts: not stored, not on the page`, async () => {
    const post = await createPost({ title: unique("XSS target "), status: "published" });
    for (const payload of XSS_PAYLOADS) {
      const saved = await call(`/api/blog/posts/${post.id}`, {
        method: "PUT",
        token: admin,
        body: { content: `<p>Before</p>${payload}<p>After</p>` },
      });
      expect(saved.status, payload).toBe(200);
      expect(findXss(saved.body.data.content), payload).toEqual([]);
      const page = await (await fetch(`${server.url}/blog/${post.slug}`)).text();
      const body =
        /<div id="post-body" class="prose">([\s\S]*?)<\/div><ul class="blog-tags|<div id="post-body" class="prose">([\s\S]*?)<\/div><div class="blog-like"/.exec(
          page,
        );
      expect(body, payload).not.toBeNull();
      expect(findXss(body![1] ?? body![2]), payload).toEqual([]);
    }
    // as a new post too (the create path), with the payload in the title as well
    for (const payload of XSS_PAYLOADS.slice(0, 10)) {
      const created = await createPost({ title: `T ${payload}`.slice(0, 200), content: `<p>x</p>${payload}` });
      expect(findXss(created.content), payload).toEqual([]);
    }
  });

  it(`lets none of the ${XSS_PAYLOADS.length} XSS payloads through in comments: not stored, not on the page`, async () => {
    const post = await createPost({ title: unique("XSS comments "), status: "published" });
    const commenter = await makePerson();
    const comment = await call(`/api/blog/posts/${post.id}/comments`, { token: commenter.token, body: { content: "<p>start</p>" } });
    expect(comment.status).toBe(201);
    for (const payload of XSS_PAYLOADS) {
      const saved = await call(`/api/blog/comments/${comment.body.data.id}`, {
        method: "PUT",
        token: commenter.token,
        body: { content: `${payload} tail` },
      });
      expect(saved.status, payload).toBe(200);
      expect(findXss(saved.body.data.content, { allowedTags: COMMENT_TAGS }), payload).toEqual([]);
      for (const link of saved.body.data.content.match(/<a [^>]*>/g) ?? [])
        expect(link, payload).toContain('rel="ugc nofollow noopener noreferrer"');
    }
    const page = await (await fetch(`${server.url}/blog/${post.slug}`)).text();
    const html = /<div class="blog-comment__body">([\s\S]*?)<\/div><div class="blog-comment__actions">/.exec(page);
    expect(html).not.toBeNull();
    expect(findXss(html![1], { allowedTags: COMMENT_TAGS })).toEqual([]);
  });
});

describe("feeds and the sitemap", () => {
  it("serves RSS 2.0 and Atom that are well formed and complete, answering 304 to a repeat request", async () => {
    const post = await createPost({
      title: unique("Feed & <friends> "),
      status: "published",
      content: '<p>Feed body ]]> with <img src="/uploads/blog/2026-11/a.webp" alt="" /></p>',
      tags: ["Feeds"],
    });
    const rss = await fetch(`${server.url}/blog/feed.xml`);
    expect(rss.status).toBe(200);
    expect(rss.headers.get("content-type")).toContain("application/rss+xml");
    const etag = rss.headers.get("etag")!;
    const lastModified = rss.headers.get("last-modified")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false);
    const rssXml = await rss.text();
    const parsed = parseXml(rssXml);
    expect(parsed.errors).toEqual([]);
    expect(parsed.root!.name).toBe("rss");
    expect(parsed.root!.attributes.version).toBe("2.0");
    const channel = childNamed(parsed.root!, "channel")!;
    for (const name of ["title", "link", "description", "lastBuildDate", "atom:link"])
      expect(childNamed(channel, name), name).toBeDefined();
    expect(childNamed(channel, "atom:link")!.attributes).toMatchObject({ rel: "self", href: expect.stringMatching(/\/blog\/feed\.xml$/) });
    const items = childrenNamed(channel, "item");
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(20);
    for (const item of items) {
      for (const name of ["title", "link", "guid", "pubDate", "description"]) expect(childNamed(item, name), name).toBeDefined();
      expect(childNamed(item, "pubDate")!.text).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    }
    // RSS titles keep "<" and ">" as HTML text (readers that render titles as HTML show them, never build tags)
    const ours = items.find((item) => asHtmlText(childNamed(item, "title")!.text) === post.title)!;
    expect(childNamed(ours, "link")!.text).toMatch(new RegExp(`/blog/${post.slug}$`));
    // addresses made absolute on the site's (PUBLIC_URL here); "]]>" in a post cannot end the CDATA section
    expect(childNamed(ours, "content:encoded")!.text).toContain(`src="http://localhost:${server.port}/uploads/blog/2026-11/a.webp"`);
    expect(childNamed(ours, "content:encoded")!.text).toContain("Feed body ]]&gt; with");

    expect((await fetch(`${server.url}/blog/feed.xml`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await fetch(`${server.url}/blog/feed.xml`, { headers: { "If-Modified-Since": lastModified } })).status).toBe(304);
    expect((await fetch(`${server.url}/blog/feed.xml`, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);

    const atom = await fetch(`${server.url}/blog/atom.xml`);
    expect(atom.headers.get("content-type")).toContain("application/atom+xml");
    const atomParsed = parseXml(await atom.text());
    expect(atomParsed.errors).toEqual([]);
    const feed = atomParsed.root!;
    expect(feed.name).toBe("feed");
    expect(feed.attributes.xmlns).toBe("http://www.w3.org/2005/Atom");
    for (const name of ["id", "title", "updated", "author", "link"]) expect(childNamed(feed, name), name).toBeDefined();
    const entries = childrenNamed(feed, "entry");
    for (const entry of entries) {
      for (const name of ["id", "title", "updated", "link", "author", "content"]) expect(childNamed(entry, name), name).toBeDefined();
      expect(Number.isNaN(Date.parse(childNamed(entry, "updated")!.text))).toBe(false);
    }
    expect((await fetch(`${server.url}/blog/atom.xml`, { headers: { "If-None-Match": atom.headers.get("etag")! } })).status).toBe(304);

    // a new post changes the feed: the old copy is stale
    await createPost({ title: unique("Newer "), status: "published" });
    const fresh = await fetch(`${server.url}/blog/feed.xml`, { headers: { "If-None-Match": etag } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("etag")).not.toBe(etag);
  });

  it("stays well-formed with control characters in a post, and gives readers text they cannot run", async () => {
    const title = unique("Paste\u000b with \u0001 controls <img src=x onerror=alert(1)> & more ");
    const post = await createPost({
      title,
      status: "published",
      excerpt: "",
      content: "<p>Before\u000b after \u0001.</p><p><code>&lt;img src=x onerror=alert(2)&gt;</code></p>",
    });
    expect(post.title).toBe(title);
    for (const path of ["/blog/feed.xml", "/blog/atom.xml"]) {
      const xml = await (await fetch(`${server.url}${path}`)).text();
      const parsed = parseXml(xml);
      expect(parsed.errors, path).toEqual([]);
      expect(xml).not.toMatch(/[\u0001\u000b]/);
    }
    const rss = parseXml(await (await fetch(`${server.url}/blog/feed.xml`)).text()).root!;
    const item = childrenNamed(childNamed(rss, "channel")!, "item").find((i) =>
      childNamed(i, "link")!.text.endsWith(`/blog/${post.slug}`),
    )!;
    // what a reader that renders these as HTML gets: text with the characters, no element
    for (const name of ["title", "description"]) {
      const text = childNamed(item, name)!.text;
      expect(text, name).not.toMatch(/<img/i);
      expect(asHtmlText(text), name).toContain("<img src=x onerror=alert(");
    }
    expect(asHtmlText(childNamed(item, "title")!.text)).toBe(title.replace(/[\u0001\u000b]/g, ""));
  });

  it("moves Last-Modified forward when a post leaves the feed (unpublished or deleted): If-Modified-Since alone gets the new feed", async () => {
    const feeds = ["/blog/feed.xml", "/blog/atom.xml"];
    const leaving = await createPost({ title: unique("Leaving the feed "), status: "published" });
    const deleted = await createPost({ title: unique("Deleted from the feed "), status: "published" });
    const stamps = new Map<string, string>();
    for (const path of feeds) {
      const first = await fetch(`${server.url}${path}`);
      expect(await first.text(), path).toContain(leaving.title);
      stamps.set(path, first.headers.get("last-modified")!);
      expect((await fetch(`${server.url}${path}`, { headers: { "If-Modified-Since": stamps.get(path)! } })).status, path).toBe(304);
    }
    const changedSince = async (title: string) => {
      for (const path of feeds) {
        const response = await fetch(`${server.url}${path}`, { headers: { "If-Modified-Since": stamps.get(path)! } });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).not.toContain(title);
        const lastModified = response.headers.get("last-modified")!;
        expect(Date.parse(lastModified), path).toBeGreaterThan(Date.parse(stamps.get(path)!));
        stamps.set(path, lastModified);
        // and the new copy is current again
        expect((await fetch(`${server.url}${path}`, { headers: { "If-Modified-Since": lastModified } })).status, path).toBe(304);
      }
    };
    // HTTP dates count whole seconds: each change comes in a second after the copies' Last-Modified
    const nextSecond = () =>
      clockPast(Math.max(...[...stamps.values()].map((stamp) => Date.parse(stamp))) + 999, "the second after the feeds' Last-Modified");
    await nextSecond();
    await call(`/api/blog/posts/${leaving.id}`, { method: "PUT", token: admin, body: { status: "draft" } });
    await changedSince(leaving.title);
    await nextSecond();
    expect((await call(`/api/blog/posts/${deleted.id}`, { method: "DELETE", token: admin })).status).toBe(200);
    await changedSince(deleted.title);
  });

  it("lists public posts, visible categories and used tags in the sitemap, never drafts", async () => {
    const live = await createPost({ title: unique("Mapped "), status: "published", tags: ["Mapped tag"] });
    const draft = await createPost({ title: unique("Unmapped ") });
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(xml).toContain(`/blog/${live.slug}</loc>`);
    expect(xml).not.toContain(`/blog/${draft.slug}</loc>`);
    expect(xml).toContain("/blog</loc>");
    expect(xml).toContain("/blog/tag/mapped-tag</loc>");
  });
});

describe("guards and bad addresses", () => {
  it("answers 401 without a user and 403 without the permission on every writing endpoint, JSON always", async () => {
    const post = await createPost({ title: unique("Guarded "), status: "published" });
    const calls: Array<[string, string, unknown, Person | null]> = [
      ["POST", "/api/blog/posts", { title: "x", content: "<p>x</p>" }, readers[0]],
      ["PUT", `/api/blog/posts/${post.id}`, { title: "x" }, author],
      ["DELETE", `/api/blog/posts/${post.id}`, undefined, editor],
      ["PUT", `/api/blog/posts/${post.id}/publish`, {}, editor],
      ["PUT", "/api/blog/settings", { posts_per_page: 3 }, author],
      ["GET", "/api/blog/admin/posts", undefined, readers[0]],
      ["GET", "/api/blog/admin/comments", undefined, author],
      ["PUT", "/api/blog/comments/1/moderate", { status: "approved" }, author],
    ];
    for (const [method, path, body, forbidden] of calls) {
      const anonymous = await call(path, { method, body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.success).toBe(false);
      const refused = await call(path, { method, body, token: forbidden!.token });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toMatchObject({ success: false, message: "权限不足，需要管理员权限" });
    }
    expect((await call(`/api/blog/posts/${post.slug}`)).status).toBe(200);
  });

  it("answers 400 for ids that are not positive numbers, 404 for unknown ones, 405 for other methods", async () => {
    for (const path of [
      "/api/blog/posts/id/abc",
      "/api/blog/posts/0/navigation",
      "/api/blog/posts/-1/comments",
      "/api/blog/categories/1.5",
    ]) {
      expect((await call(path)).status, path).toBe(400);
    }
    expect((await call("/api/blog/posts/id/999999")).status).toBe(404);
    expect((await call("/api/blog/posts/no-such-post")).status).toBe(404);
    expect((await call("/api/blog/posts/featured", { method: "POST", token: admin })).status).toBe(405);
    expect((await call("/api/blog/posts/1/view")).status).toBe(405);
  });

  it("takes a featured image upload (content-checked, re-encoded) for blog staff only", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#e11d48" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
    const uploaded = await call("/api/blog/images", { token: editor.token, body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data.url).toMatch(/^\/uploads\/blog\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
    const file = await fetch(`${server.url}${uploaded.body.data.url}`);
    expect(file.status).toBe(200);
    const post = await createPost({ title: unique("Pictured "), featured_image: uploaded.body.data.url });
    expect(post.featured_image).toBe(uploaded.body.data.url);
    const fake = new FormData();
    fake.append("image", new Blob(["<svg onload=alert(1)>"], { type: "image/png" }), "evil.png");
    const refused = await call("/api/blog/images", { token: editor.token, body: fake });
    expect(refused.status).toBe(400);
    const reader = new FormData();
    reader.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
    expect((await call("/api/blog/images", { token: readers[0].token, body: reader })).status).toBe(403);
  });
});

describe("scheduled publishing", () => {
  it("published the post scheduled at the start of this file within 60 s of its time, by itself", async () => {
    const deadline = scheduledEarly.dueAt + 60_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await call(`/api/blog/posts/${scheduledEarly.slug}`)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(200);
    const post = (await call(`/api/blog/posts/id/${scheduledEarly.id}`)).body.data;
    expect(post.status).toBe("published");
    expect(Date.parse(post.published_at)).toBe(scheduledEarly.dueAt);
    const feed = await (await fetch(`${server.url}/blog/feed.xml`)).text();
    expect(feed).toContain(`/blog/${scheduledEarly.slug}</link>`);
  });

  it("publishes at start a post that fell due while the server was stopped", async () => {
    const dueAt = Date.now() + 2500;
    const post = await createPost({ title: unique("Due while down "), status: "scheduled", published_at: new Date(dueAt).toISOString() });
    expect(post.status).toBe("scheduled");
    const dataDir = server.dataDir;
    expect(await server.stop()).toBe(0);
    await clockPast(dueAt, "the post's time, while the server is down");
    server = await startTestServer({ dataDir });
    // the job runs as the server starts: no 15 s wait
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await call(`/api/blog/posts/${post.slug}`)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect(server.output()).toContain(`scheduled post #${post.id}`);
  });
});
