/**
 * The demo blog seeded into an empty blog: two top-level categories (one with a
 * subcategory), six published posts and a draft with tags and featured pictures drawn
 * here (the catalogue's pixel-font pictures: no fonts, no network), and comments by demo
 * readers, one a reply, one waiting for moderation. Deterministic: fixed dates and texts.
 *
 * The demo people (an author and two readers) have no password and no Google link: they
 * cannot log in; they only give the posts and comments their names.
 */
import type { Kysely } from "kysely";
import { htmlToText, readingTime } from "../../app/lib/blog-text";
import { sanitizePostHtml, sanitizeCommentHtml } from "../../app/lib/html-sanitize.server";
import { insertBlogCategory, insertComment, insertPost, insertTag, setPostTags } from "../../app/models/blog.server";
import { insertUser } from "../../app/models/user.server";
import { removeUpload, storeImage, type StoredUpload } from "../../app/services/uploads.server";
import { renderProductImage } from "./catalogue";
import type { Database } from "../../db/schema";
import type { Seeder } from "./seed";

type PostSeed = {
  slug: string;
  title: string;
  category: "guides" | "shipping" | "qc";
  tags: string[];
  excerpt: string;
  html: string;
  publishedAt: string | null;
  featured?: boolean;
  pinned?: boolean;
  initials: string;
  hue: number;
  views: number;
};

export const DEMO_BLOG_CATEGORIES = [
  {
    key: "guides",
    name: "Buying guides",
    slug: "buying-guides",
    description: "How to find, compare and order products on Weidian, Taobao, Tmall and 1688.",
    parent: null,
    order: 0,
  },
  {
    key: "shipping",
    name: "Agents & shipping",
    slug: "agents-shipping",
    description: "Shopping agents, warehouses, parcels and customs.",
    parent: "guides",
    order: 0,
  },
  {
    key: "qc",
    name: "QC & quality",
    slug: "qc-quality",
    description: "Reading QC photos, spotting flaws, sizing and materials.",
    parent: null,
    order: 1,
  },
] as const;

export const DEMO_POSTS: readonly PostSeed[] = [
  {
    slug: "how-to-buy-on-weidian",
    title: "How to buy on Weidian: a step-by-step guide",
    category: "guides",
    tags: ["Weidian", "Beginners"],
    excerpt: "Weidian shops sell straight from small sellers. Here is how to find an item, check it and order it through an agent.",
    html: `<p>Weidian (微店) is a marketplace of small shops run from a phone. Prices are often lower than on the big platforms, and many sellers specialise in one kind of product.</p>
<h2>1. Find the item</h2>
<p>Paste a Weidian link or item id into the search box of this site. Every Weidian item has a numeric <code>itemID</code> in its address, for example <code>weidian.com/item.html?itemID=7234567890</code>.</p>
<h2>2. Check the seller and the photos</h2>
<ul><li><p>Look for QC photos other buyers uploaded.</p></li><li><p>Compare the price with the same item on Taobao.</p></li><li><p>Read the size chart: Chinese sizes run small.</p></li></ul>
<h2>3. Order through a shopping agent</h2>
<p>Weidian does not ship abroad. A shopping agent buys the item for you, receives it in their warehouse, takes photos and ships it with your other parcels.</p>
<blockquote><p>Tip: ask the agent for measurements in the QC photos before you approve shipping.</p></blockquote>`,
    publishedAt: "2026-10-02T09:00:00.000Z",
    featured: true,
    pinned: true,
    initials: "WD",
    hue: 18,
    views: 412,
  },
  {
    slug: "taobao-vs-1688",
    title: "Taobao or 1688: which one should you use?",
    category: "guides",
    tags: ["Taobao", "1688"],
    excerpt: "1688 is the wholesale side of Alibaba, Taobao the retail one. When is buying from a factory worth it?",
    html: `<p>Both belong to Alibaba, but they answer different needs.</p>
<h2>Taobao</h2>
<p>Single items, reviews in Chinese, fast domestic shipping and thousands of shops for every product.</p>
<h2>1688</h2>
<p>Factories and wholesalers. Prices drop with quantity, minimum orders are common, and photos are often the factory's own.</p>
<h3>When 1688 wins</h3>
<ol><li><p>You buy several of the same item.</p></li><li><p>The item is simple (bags, basics, accessories).</p></li><li><p>You can wait a little longer.</p></li></ol>`,
    publishedAt: "2026-10-09T09:00:00.000Z",
    featured: true,
    initials: "TB",
    hue: 200,
    views: 268,
  },
  {
    slug: "shipping-lines-explained",
    title: "Shipping lines explained: EMS, air and sea",
    category: "shipping",
    tags: ["Shipping", "Agents"],
    excerpt: "Which line to choose for a 2 kg haul, and why the cheapest one is not always the cheapest.",
    html: `<p>Agents offer many shipping lines. They differ in price per kilogram, speed, tax handling and how they measure volume.</p>
<h2>Volumetric weight</h2>
<p>Light but bulky parcels (jackets, shoe boxes) are charged by size: length × width × height ÷ 6000. Ask the agent to remove shoe boxes to save weight.</p>
<h2>Tax-included lines</h2>
<p>Some lines include import duties. They cost more up front but you pay nothing at the door.</p>`,
    publishedAt: "2026-10-16T09:00:00.000Z",
    initials: "SH",
    hue: 140,
    views: 151,
  },
  {
    slug: "reading-qc-photos",
    title: "Reading QC photos like a pro",
    category: "qc",
    tags: ["QC photos", "Beginners"],
    excerpt: "What to look for in the warehouse photos before you approve a parcel: stitching, logos, measurements.",
    html: `<p>QC (quality control) photos are taken by the agent's warehouse when your item arrives. They are your last chance to return it.</p>
<h2>Check list</h2>
<ul><li><p><strong>Stitching</strong>: even, no loose threads.</p></li><li><p><strong>Print and logos</strong>: sharp edges, right colours.</p></li><li><p><strong>Measurements</strong>: compare with the size chart.</p></li><li><p><strong>Defects</strong>: stains, glue marks, scratches.</p></li></ul>
<p>Compare with photos other buyers uploaded on the product's page here: the same batch usually shows the same flaws.</p>`,
    publishedAt: "2026-10-23T09:00:00.000Z",
    featured: true,
    initials: "QC",
    hue: 280,
    views: 530,
  },
  {
    slug: "chinese-sizes-guide",
    title: "Chinese sizes: how to pick the right one",
    category: "qc",
    tags: ["Sizing"],
    excerpt: "Why an XL in China fits like an M elsewhere, and how to read a size chart in centimetres.",
    html: `<p>Chinese sizes are usually one or two sizes smaller than European ones. Always read the chart in centimetres.</p>
<h2>Measure a piece you own</h2>
<p>Lay a shirt that fits you flat, measure chest width (armpit to armpit) and length, and compare with the chart.</p>
<h2>Shoes</h2>
<p>Shoe sizes follow EU numbers on most listings; the foot length in millimetres is the safest guide.</p>`,
    publishedAt: "2026-11-06T09:00:00.000Z",
    initials: "SZ",
    hue: 40,
    views: 97,
  },
  {
    slug: "tmall-official-stores",
    title: "Tmall official stores: when to pay more",
    category: "guides",
    tags: ["Tmall", "Taobao"],
    excerpt: "Tmall shops are checked brands and big retailers. For electronics and cosmetics the premium is worth it.",
    html: `<p>Tmall (天猫) is the curated part of Taobao: every shop is a registered company, many are the brands' own flagship stores.</p>
<p>For electronics, cosmetics and anything you put on your skin, buy from an official store even when Taobao is cheaper.</p>`,
    publishedAt: "2026-11-13T09:00:00.000Z",
    initials: "TM",
    hue: 350,
    views: 64,
  },
  {
    slug: "winter-jackets-roundup",
    title: "Winter jackets round-up (draft)",
    category: "qc",
    tags: ["Sizing"],
    excerpt: "",
    html: "<p>Notes for next month's round-up: down fill power, shell fabrics, sizing.</p>",
    publishedAt: null,
    initials: "WJ",
    hue: 220,
    views: 0,
  },
];

const DEMO_PEOPLE = [
  { key: "author", username: "qc_team", email: "qc-team@demo.invalid", firstName: "QC Finder", lastName: "Team" },
  { key: "lin", username: "lin_buys", email: "lin@demo.invalid", firstName: null, lastName: null },
  { key: "marco", username: "marco_hauls", email: "marco@demo.invalid", firstName: null, lastName: null },
] as const;

type CommentSeed = {
  post: string;
  by: "lin" | "marco" | "author";
  text: string;
  at: string;
  replyTo?: number;
  status?: "approved" | "pending";
};

const DEMO_COMMENTS: readonly CommentSeed[] = [
  {
    post: "how-to-buy-on-weidian",
    by: "lin",
    text: "Great guide! The tip about asking for measurements saved me a return.",
    at: "2026-10-03T12:00:00.000Z",
  },
  {
    post: "how-to-buy-on-weidian",
    by: "author",
    text: "Glad it helped. Measurements are the best QC photo there is.",
    at: "2026-10-03T15:30:00.000Z",
    replyTo: 0,
  },
  {
    post: "how-to-buy-on-weidian",
    by: "marco",
    text: "Does this work for Weidian links copied from the app?",
    at: "2026-10-05T08:10:00.000Z",
  },
  {
    post: "reading-qc-photos",
    by: "marco",
    text: "Glue marks are the one I always miss. Thanks for the list.",
    at: "2026-10-24T10:00:00.000Z",
  },
  {
    post: "shipping-lines-explained",
    by: "lin",
    text: "Removing the shoe boxes cut my parcel from 6 kg to 4 kg.",
    at: "2026-10-17T18:45:00.000Z",
  },
  { post: "taobao-vs-1688", by: "lin", text: "Which agent do you use for 1688 orders?", at: "2026-10-10T07:20:00.000Z", status: "pending" },
];

const IMAGE_MESSAGES = { notImage: "demo image could not be read", tooLarge: "demo image too large" };

export type PreparedBlog = { images: StoredUpload[] };

async function prepare(): Promise<PreparedBlog> {
  const images: StoredUpload[] = [];
  try {
    for (const post of DEMO_POSTS) {
      const png = await renderProductImage(post.initials, post.hue, 0);
      images.push(await storeImage(new Blob([new Uint8Array(png)], { type: "image/png" }), "blog", null, IMAGE_MESSAGES, 5 * 1024 * 1024));
    }
  } catch (error) {
    await discard({ images });
    throw error;
  }
  return { images };
}

async function discard(prepared: PreparedBlog): Promise<void> {
  for (const upload of prepared.images) await removeUpload(upload).catch(() => undefined);
}

async function run(db: Kysely<Database>, { images }: PreparedBlog): Promise<void> {
  const people = new Map<string, number>();
  for (const person of DEMO_PEOPLE) {
    // an existing account of that name (say, made by hand before the blog landed) is reused
    const existing = await db.selectFrom("users").select("id").where("username", "=", person.username).executeTakeFirst();
    const id =
      existing?.id ??
      (
        await insertUser(db, {
          username: person.username,
          email: person.email,
          passwordHash: null,
          firstName: person.firstName,
          lastName: person.lastName,
          emailVerified: true,
        })
      ).id;
    people.set(person.key, id);
  }
  const categories = new Map<string, number>();
  for (const category of DEMO_BLOG_CATEGORIES) {
    const id = await insertBlogCategory(db, {
      name: category.name,
      slug: category.slug,
      description: category.description,
      parentId: category.parent ? categories.get(category.parent)! : null,
      displayOrder: category.order,
      isVisible: true,
    });
    categories.set(category.key, id);
  }
  const tags = new Map<string, number>();
  const posts = new Map<string, number>();
  for (const [n, post] of DEMO_POSTS.entries()) {
    const content = sanitizePostHtml(post.html);
    const id = await insertPost(
      db,
      {
        title: post.title,
        slug: post.slug,
        excerpt: post.excerpt || null,
        content,
        contentText: htmlToText(content),
        categoryId: categories.get(post.category)!,
        status: post.publishedAt ? "published" : "draft",
        isFeatured: post.featured ?? false,
        isPinned: post.pinned ?? false,
        readingTime: readingTime(content),
        featuredImage: images[n]?.url ?? null,
        metaTitle: null,
        metaDescription: null,
        publishedAt: post.publishedAt,
      },
      people.get("author")!,
    );
    const stamp = post.publishedAt ?? "2026-11-20T09:00:00.000Z";
    await db.updateTable("blog_posts").set({ view_count: post.views, created_at: stamp, updated_at: stamp }).where("id", "=", id).execute();
    const tagIds: number[] = [];
    for (const name of post.tags) {
      let tagId = tags.get(name);
      if (tagId === undefined) {
        tagId = (await insertTag(db, name, name.toLowerCase().replace(/[^a-z0-9]+/g, "-"))).id;
        tags.set(name, tagId);
      }
      tagIds.push(tagId);
    }
    await setPostTags(db, id, tagIds);
    posts.set(post.slug, id);
  }
  const commentIds: number[] = [];
  for (const comment of DEMO_COMMENTS) {
    const id = await insertComment(db, {
      postId: posts.get(comment.post)!,
      parentId: comment.replyTo !== undefined ? commentIds[comment.replyTo] : null,
      userId: people.get(comment.by)!,
      content: sanitizeCommentHtml(comment.text),
      status: comment.status ?? "approved",
    });
    await db.updateTable("blog_comments").set({ created_at: comment.at, updated_at: comment.at }).where("id", "=", id).execute();
    commentIds.push(id);
  }
  // a few likes from the demo readers
  await db
    .insertInto("blog_post_likes")
    .values([
      { post_id: posts.get("how-to-buy-on-weidian")!, user_id: people.get("lin")! },
      { post_id: posts.get("how-to-buy-on-weidian")!, user_id: people.get("marco")! },
      { post_id: posts.get("reading-qc-photos")!, user_id: people.get("lin")! },
    ])
    .execute();
  await db
    .insertInto("blog_comment_likes")
    .values({ comment_id: commentIds[0], user_id: people.get("marco")! })
    .execute();
}

async function hasData(db: Kysely<Database>): Promise<boolean> {
  const [category, post] = await Promise.all([
    db.selectFrom("blog_categories").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("blog_posts").select("id").limit(1).executeTakeFirst(),
  ]);
  return Boolean(category || post);
}

export const blogSeeder: Seeder<PreparedBlog> = { name: "blog", hasData, prepare, run, discard };
