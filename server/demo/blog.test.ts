import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { sanitizePostHtml } from "~/lib/html-sanitize.server";
import { searchPostIds } from "~/models/blog.server";
import { DEMO_POSTS } from "./blog";
import { seedDatabase } from "./seed";

afterAll(() => closeDb());

describe("demo blog seed", () => {
  it("fills an empty blog with posts in two categories, tags, comments and likes; a second run writes nothing", async () => {
    const db = getDb();
    expect(await seedDatabase(db)).toBe(true);

    const categories = await db.selectFrom("blog_categories").selectAll().execute();
    expect(categories.filter((c) => c.parent_id === null)).toHaveLength(2);
    expect(categories.filter((c) => c.parent_id !== null)).toHaveLength(1);

    const posts = await db.selectFrom("blog_posts").selectAll().orderBy("id").execute();
    expect(posts).toHaveLength(DEMO_POSTS.length);
    const published = posts.filter((p) => p.status === "published");
    expect(published.length).toBeGreaterThanOrEqual(6);
    expect(posts.some((p) => p.status === "draft")).toBe(true);
    const topOf = new Map(categories.map((c) => [c.id, c.parent_id ?? c.id]));
    expect(new Set(published.map((p) => topOf.get(p.category_id!))).size).toBe(2);
    for (const post of posts) {
      // stored as the sanitiser leaves it, with its text, reading time and a picture on disk
      expect(post.content).toBe(sanitizePostHtml(post.content));
      expect(post.content_text.length).toBeGreaterThan(0);
      expect(post.reading_time).toBeGreaterThanOrEqual(1);
      expect(post.featured_image).toMatch(/^\/uploads\/blog\//);
      expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, post.featured_image!.slice("/uploads/".length)))).toBe(true);
    }
    expect(posts.filter((p) => p.is_featured === 1).length).toBeGreaterThanOrEqual(3);

    const tagged = await db.selectFrom("blog_post_tags").select(["post_id"]).execute();
    expect(new Set(tagged.map((t) => t.post_id)).size).toBe(posts.length);
    const comments = await db.selectFrom("blog_comments").selectAll().execute();
    expect(comments.filter((c) => c.status === "approved").length).toBeGreaterThanOrEqual(4);
    expect(comments.some((c) => c.status === "pending")).toBe(true);
    expect(comments.some((c) => c.parent_id !== null)).toBe(true);
    // the demo people cannot log in
    const people = await db.selectFrom("users").select(["password_hash", "google_id"]).where("email", "like", "%@demo.invalid").execute();
    expect(people).toHaveLength(3);
    for (const person of people) expect(person).toEqual({ password_hash: null, google_id: null });
    // the search index was filled by the triggers
    expect((await searchPostIds(db, ["stitching"])).length).toBeGreaterThan(0);

    const before = await db
      .selectFrom("blog_posts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(await seedDatabase(db)).toBe(false);
    const after = await db
      .selectFrom("blog_posts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
