/**
 * Posts: reading them (visibility: visitors see published posts whose published_at has
 * passed; any other post answers 404 unless the caller holds blog.edit), their views, writing
 * them, and the job that publishes scheduled ones (every 15 s, and at start when overdue).
 */
import { ApiError } from "~/lib/api.server";
import { htmlToText, postSlugFromTitle, readingTime, slugFromName, uniqueSlug } from "~/lib/blog-text";
import { getDb, type DB } from "~/lib/db.server";
import { answerDependsOn, asksForPageData } from "~/lib/request-scope.server";
import { sanitizePostHtml } from "~/lib/html-sanitize.server";
import { log } from "~/lib/log.server";
import { plainLine } from "~/lib/text";
import type { Access } from "~/lib/permissions";
import {
  countPostsByStatus,
  deletePost,
  findBlogCategory,
  findPost,
  findTagBySlug,
  findTagsByNames,
  insertPost,
  insertTag,
  listBlogCategories,
  listPosts,
  postNeighbours,
  publishDuePosts,
  searchPostIds,
  setPostTags,
  slugsLike,
  updatePost,
  type BlogCategory,
  type BlogPost,
  type BlogTag,
  type PostFilter,
  type PostNeighbour,
  type PostOrder,
  type PostRowInput,
} from "~/models/blog.server";
import { BLOG_MESSAGES as M, BLOG_SIDE_LIST_SIZE, type PostBody, type PostStatus, type PostUpdateBody } from "~/schemas/blog";
import { countPostViewBy } from "../blog-views.server";
import type { JobDefinition } from "../jobs.server";
import type { Actor } from "../permissions.server";
import { pagesChanged, staffWrite } from "../writes.server";
import { isUniqueViolation } from "~/lib/db-errors.server";
import { lockedTransaction, serializeOn } from "~/models/sql-dialect.server";
import { descendantIds } from "./categories.server";
import { fieldError, isPublic, postJson, postNotFound, seesAllPosts, worksOnBlog } from "./common.server";
import { loadBlogSettings } from "./settings.server";

const db = (): DB => getDb();
const now = () => new Date().toISOString();

// ---------------------------------------------------------------- reading posts

export type PostList = {
  posts: BlogPost[];
  page: number;
  totalPages: number;
  totalPosts: number;
  hasNext: boolean;
  hasPrev: boolean;
  limit: number;
};

/** The list envelope of the blog (docs/product/admin.md 3): page, totalPages, totalPosts, hasNext, hasPrev. */
export function postListJson(list: PostList) {
  return {
    posts: list.posts.map(postJson),
    page: list.page,
    totalPages: list.totalPages,
    totalPosts: list.totalPosts,
    hasNext: list.hasNext,
    hasPrev: list.hasPrev,
  };
}

async function pageOf(
  filter: PostFilter,
  options: { page: number; limit: number | null; order: PostOrder; withContent?: boolean },
): Promise<PostList> {
  const limit = options.limit ?? (await loadBlogSettings()).postsPerPage;
  const first = await listPosts(db(), filter, { order: options.order, page: options.page, limit, withContent: options.withContent });
  const totalPages = Math.max(1, Math.ceil(first.total / limit));
  // a page past the end shows the last one
  const page = Math.min(options.page, totalPages);
  const result =
    page === options.page ? first : await listPosts(db(), filter, { order: options.order, page, limit, withContent: options.withContent });
  return { posts: result.items, page, totalPages, totalPosts: result.total, hasNext: page < totalPages, hasPrev: page > 1, limit };
}

const publicFilter = (): PostFilter => ({ publicOnly: { now: now() } });

export type ListOptions = { page: number; limit: number | null; withContent?: boolean };

/** The public list: pinned posts first, then the newest. */
export function listPublicPosts(options: ListOptions): Promise<PostList> {
  return pageOf(publicFilter(), { ...options, order: "pinned" });
}

/** A category with its subcategories (their posts belong to it), or 404 (hidden ones too, for visitors). */
export async function getCategoryBySlug(
  slug: string,
  access?: Access | null,
): Promise<{ category: BlogCategory; ids: number[]; all: BlogCategory[] }> {
  const all = await listBlogCategories(db());
  const category = all.find((c) => c.slug === slug);
  if (!category || (!category.isVisible && !worksOnBlog(access))) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
  return { category, ids: descendantIds(all, category.id, true), all };
}

export async function listCategoryPosts(
  slug: string,
  options: ListOptions,
  access?: Access | null,
): Promise<PostList & { category: BlogCategory }> {
  const { category, ids } = await getCategoryBySlug(slug, access);
  return { ...(await pageOf({ ...publicFilter(), categoryIds: ids }, { ...options, order: "latest" })), category };
}

export async function getTagBySlug(slug: string): Promise<BlogTag> {
  const tag = await findTagBySlug(db(), slug);
  if (!tag) throw new ApiError(404, M.tagNotFound, "NOT_FOUND");
  return tag;
}

export async function listTagPosts(slug: string, options: ListOptions): Promise<PostList & { tag: BlogTag }> {
  const tag = await getTagBySlug(slug);
  return { ...(await pageOf({ ...publicFilter(), tagId: tag.id }, { ...options, order: "latest" })), tag };
}

/**
 * A search term as it may reach a query and a page: control characters (a %00 in the
 * address, a pasted tab) are spaces, as in the product search (plainLine); runs of spaces
 * one; at most 200 characters. A NUL that reached the query was a 500 on both engines.
 */
export function blogSearchTerm(raw: string): string {
  return plainLine(raw).replace(/\s+/g, " ").trim().slice(0, 200);
}

/** Search terms: split on spaces, at most 8, each at most 50 characters. */
export function splitSearchTerms(q: string): string[] {
  return [...new Set(q.trim().toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 8).map((term) => term.slice(0, 50));
}

/**
 * Full-text search of public posts over title, excerpt and text: terms of 3+ characters
 * through the trigram index (best match first), shorter ones (两字 words) as plain text.
 */
export async function searchPosts(q: string, options: ListOptions): Promise<PostList> {
  const cleaned = blogSearchTerm(q);
  const terms = splitSearchTerms(cleaned);
  const long = terms.filter((term) => [...term].length >= 3);
  const short = terms.filter((term) => [...term].length < 3);
  const rankedIds = long.length ? await searchPostIds(db(), long) : null;
  const phrase = cleaned.toLowerCase();
  return pageOf({ ...publicFilter(), search: { rankedIds, shortTerms: short, phrase } }, { ...options, order: "relevance" });
}

export async function featuredPosts(limit = BLOG_SIDE_LIST_SIZE, withContent = false): Promise<BlogPost[]> {
  return (await listPosts(db(), { ...publicFilter(), featured: true }, { order: "pinned", page: 1, limit, withContent })).items;
}

export async function popularPosts(limit = BLOG_SIDE_LIST_SIZE, withContent = false): Promise<BlogPost[]> {
  answerDependsOn("popular-posts");
  return (await listPosts(db(), publicFilter(), { order: "popular", page: 1, limit, withContent })).items;
}

/** A post by its slug or id: public posts for everyone, any post for holders of blog.edit; else 404. */
export async function getPost(where: { slug: string } | { id: number }, access?: Access | null): Promise<BlogPost> {
  const post = await findPost(db(), where);
  if (!post || (!isPublic(post) && !seesAllPosts(access))) throw postNotFound();
  return post;
}

/** The public posts before (older) and after (newer) a post. */
export async function postNavigation(
  id: number,
  access?: Access | null,
): Promise<{ previous: PostNeighbour | null; next: PostNeighbour | null }> {
  const post = await getPost({ id }, access);
  return postNeighbours(db(), post);
}

export type AdminPostQuery = { search: string; category: string; status: PostStatus | "all"; page: number; limit: number };

/** The back office's list: search (title, excerpt, slug), category slug (with subcategories), status. */
export async function adminPostList(
  query: AdminPostQuery,
  withContent = false,
): Promise<PostList & { statusCounts: Record<PostStatus, number> }> {
  const filter: PostFilter = {};
  const search = blogSearchTerm(query.search);
  if (search) filter.titleContains = search;
  if (query.status !== "all") filter.status = query.status;
  if (query.category) {
    const all = await listBlogCategories(db());
    const category = all.find((c) => c.slug === query.category);
    filter.categoryIds = category ? descendantIds(all, category.id, true) : [];
  }
  const [list, statusCounts] = await Promise.all([
    pageOf(filter, { page: query.page, limit: query.limit, order: "updated", withContent }),
    countPostsByStatus(db()),
  ]);
  return { ...list, statusCounts };
}

// ---------------------------------------------------------------- views

/** Counts a view of a post (see blog-views.server.ts for what counts). */
export function countPostView(postId: number, viewer: { request: Request; clientIp: string; userId: number | null }): Promise<boolean> {
  // the data a post's page hydrates with counts nothing: the page did (decision 044)
  if (asksForPageData()) return Promise.resolve(false);
  return countPostViewBy(postId, {
    userAgent: viewer.request.headers.get("User-Agent"),
    incrementView: new URL(viewer.request.url).searchParams.get("incrementView"),
    clientIp: viewer.clientIp,
    userId: viewer.userId,
  });
}

// ---------------------------------------------------------------- writing posts

/**
 * Slugs a post cannot have: /api/blog/posts/featured, /popular and /search are lists, so a
 * post with one of these slugs could never be read by its slug (it gets `-2`).
 */
export const RESERVED_POST_SLUGS: ReadonlySet<string> = new Set(["featured", "popular", "search"]);

async function freePostSlug(base: string, exceptId?: number): Promise<string> {
  const taken = await slugsLike(db(), "blog_posts", base, exceptId);
  if (RESERVED_POST_SLUGS.has(base)) taken.add(base);
  return uniqueSlug(base, taken);
}

async function assertBlogCategory(categoryId: number | null | undefined): Promise<void> {
  if (!categoryId) return;
  if (!(await findBlogCategory(db(), { id: categoryId }))) throw fieldError(400, "category_id", M.categoryNotFound);
}

/**
 * Tag ids for names, inside the transaction that sets them on a post: existing tags are
 * reused (case-insensitively), new ones made with unique slugs. Tag changes take turns
 * (decision 030): a save that makes a tag, uses one, or removes one left unused runs one
 * at a time, so no save uses a tag another is removing, nor makes one another is making.
 */
async function tagIdsFor(trx: DB, names: string[]): Promise<number[]> {
  await serializeOn(trx, "blog-tags");
  const existing = await findTagsByNames(trx, names);
  const byName = new Map(existing.map((tag) => [tag.name.toLowerCase(), tag.id]));
  const ids: number[] = [];
  for (const name of names) {
    let id = byName.get(name.toLowerCase());
    if (id === undefined) {
      const base = slugFromName(name) || "tag";
      id = (await insertTag(trx, name, uniqueSlug(base, await slugsLike(trx, "blog_tags", base)))).id;
      byName.set(name.toLowerCase(), id);
    }
    ids.push(id);
  }
  return ids;
}

/**
 * The status and publication time a save ends with: published gets a time (now unless
 * given; a future one makes it scheduled); scheduled needs a time (a past one publishes
 * at once); others keep the time they had.
 */
function settleStatus(status: PostStatus, publishedAt: string | null, nowIso: string): { status: PostStatus; publishedAt: string | null } {
  if (status === "published") {
    if (!publishedAt) return { status, publishedAt: nowIso };
    return { status: publishedAt > nowIso ? "scheduled" : "published", publishedAt };
  }
  if (status === "scheduled") {
    if (!publishedAt) throw fieldError(400, "published_at", M.scheduleNeedsTime);
    return { status: publishedAt <= nowIso ? "published" : "scheduled", publishedAt };
  }
  return { status, publishedAt };
}

const isUniqueSlugViolation = (error: unknown) => isUniqueViolation(error, { table: "blog_posts", column: "slug" });

/**
 * Creates a post (blog.create, whatever its status: docs/runtime.md names blog.create for
 * POST /posts; blog.publish is the permission of PUT /posts/:id/publish). Slug and
 * reading time are computed when absent.
 */
async function createPostWrite(body: PostBody, actor: Actor): Promise<BlogPost> {
  const content = sanitizePostHtml(body.content);
  const text = htmlToText(content);
  if (!text && !/<img\s/i.test(content)) throw fieldError(400, "content", M.titleContentRequired);
  await assertBlogCategory(body.category_id);
  const requested = body.status ?? "draft";
  const { status, publishedAt } = settleStatus(requested, body.published_at ?? null, now());
  const base = (body.slug ? slugFromName(body.slug) : "") || postSlugFromTitle(body.title);
  const input: PostRowInput = {
    title: body.title,
    slug: base,
    excerpt: body.excerpt ?? null,
    content,
    contentText: text,
    categoryId: body.category_id ?? null,
    status,
    isFeatured: body.is_featured ?? false,
    isPinned: body.is_pinned ?? false,
    readingTime: body.reading_time ?? readingTime(content),
    featuredImage: body.featured_image ?? null,
    metaTitle: body.meta_title ?? null,
    metaDescription: body.meta_description ?? null,
    publishedAt,
  };
  // two saves may race for a slug: the unique index decides, the loser takes the next
  for (let attempt = 0; ; attempt++) {
    input.slug = await freePostSlug(base);
    try {
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          const tagIds = body.tags ? await tagIdsFor(trx, body.tags) : [];
          const postId = await insertPost(trx, input, actor.user.id);
          if (tagIds.length) await setPostTags(trx, postId, tagIds);
          return postId;
        });
      return (await findPost(db(), { id }))!;
    } catch (error) {
      if (attempt < 3 && isUniqueSlugViolation(error)) continue;
      throw error;
    }
  }
}

async function currentPost(id: number): Promise<BlogPost> {
  const post = await findPost(db(), { id });
  if (!post) throw postNotFound();
  return post;
}

/** Applies the fields given, status included (blog.edit, as docs/runtime.md says for PUT /posts/:id). */
async function updatePostByAdminWrite(id: number, body: PostUpdateBody, _actor: Actor): Promise<BlogPost> {
  const current = await currentPost(id);
  const changes: Partial<PostRowInput> = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.content !== undefined) {
    const content = sanitizePostHtml(body.content);
    const text = htmlToText(content);
    if (!text && !/<img\s/i.test(content)) throw fieldError(400, "content", M.titleContentRequired);
    changes.content = content;
    changes.contentText = text;
    if (body.reading_time === undefined || body.reading_time === null) changes.readingTime = readingTime(content);
  }
  if (body.reading_time) changes.readingTime = body.reading_time;
  if (body.excerpt !== undefined) changes.excerpt = body.excerpt ?? null;
  if (body.category_id !== undefined) {
    await assertBlogCategory(body.category_id);
    changes.categoryId = body.category_id ?? null;
  }
  if (body.is_featured !== undefined) changes.isFeatured = body.is_featured;
  if (body.is_pinned !== undefined) changes.isPinned = body.is_pinned;
  if (body.featured_image !== undefined) changes.featuredImage = body.featured_image ?? null;
  if (body.meta_title !== undefined) changes.metaTitle = body.meta_title ?? null;
  if (body.meta_description !== undefined) changes.metaDescription = body.meta_description ?? null;
  if (body.slug !== undefined) {
    // a slug cleared by hand is made again from the title
    const base = (body.slug ? slugFromName(body.slug) : "") || postSlugFromTitle(changes.title ?? current.title);
    if (base !== current.slug) changes.slug = await freePostSlug(base, id);
  }
  if (body.status !== undefined || body.published_at !== undefined) {
    const requested = body.status ?? current.status;
    const settled = settleStatus(requested, body.published_at !== undefined ? body.published_at : current.publishedAt, now());
    changes.status = settled.status;
    changes.publishedAt = settled.publishedAt;
  }
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        const tagIds = body.tags ? await tagIdsFor(trx, body.tags) : null;
        await updatePost(trx, id, changes);
        if (tagIds) await setPostTags(trx, id, tagIds);
      });
  } catch (error) {
    if (isUniqueSlugViolation(error)) throw fieldError(409, "slug", `The slug “${changes.slug}” is taken`);
    throw error;
  }
  return currentPost(id);
}

/** PUT /posts/:id/publish (blog.publish): `published` (now, unless it has a time) or the given status. */
async function setPostStatusWrite(
  id: number,
  status: PostStatus,
  publishedAt: string | null | undefined,
  _actor: Actor,
): Promise<BlogPost> {
  const current = await currentPost(id);
  let time = publishedAt !== undefined ? publishedAt : current.publishedAt;
  // publishing without a time means live now: a post scheduled for later, or a draft that
  // keeps a future time from an earlier schedule, is published now (never left scheduled)
  const at = now();
  if (status === "published" && publishedAt === undefined && (!time || time > at)) time = at;
  const settled = settleStatus(status, time, now());
  await updatePost(db(), id, { status: settled.status, publishedAt: settled.publishedAt });
  return currentPost(id);
}

/**
 * The list's one-click toggle (docs/product/admin.md 4): published becomes draft, anything else
 * published (now, when its kept time lies ahead: a toggled post is live at once).
 */
export const togglePublished = staffWrite(
  // the spec's toggle is a full update of the post (PUT /posts/:id, blog.edit); blog.publish is the publish call's own
  { requires: { anyOf: ["blog.edit", "blog.publish"] }, stales: ["blog"] },
  async (id: number, actor: Actor): Promise<BlogPost> => {
    const current = await currentPost(id);
    return setPostStatusWrite(id, current.status === "published" ? "draft" : "published", undefined, actor);
  },
);

/** "Publish now" of the editor: published from now (a post already live keeps its date). */
export function publishNowTime(current: Pick<BlogPost, "status" | "publishedAt"> | null): string {
  return current && isPublic(current) && current.publishedAt ? current.publishedAt : now();
}

async function deletePostByAdminWrite(id: number, _actor: Actor): Promise<BlogPost> {
  const post = await currentPost(id);
  // its tags no other post uses go with it: in turn with the saves that use tags
  await lockedTransaction(db(), "blog-tags", (trx) => deletePost(trx, id));
  return post;
}

// ---------------------------------------------------------------- scheduling

/** Publishes every scheduled post whose time has come (idempotent: a second run finds none). */
export async function publishScheduledPosts(): Promise<number> {
  const published = await publishDuePosts(db(), now());
  for (const post of published) log.info(`blog: scheduled post #${post.id} “${post.title}” published`);
  if (published.length) pagesChanged(["blog"]);
  return published.length;
}

/**
 * The job that makes scheduled posts go live (decision 016 runs it; decision 017): every
 * 15 s, so a post appears within 15 s of its time, and at every start (posts that fell
 * due while the server was down go live then).
 */
export const blogPublishJob: JobDefinition = {
  name: "blog.publish-scheduled",
  every: 15_000,
  runAtStart: true,
  run: async () => {
    await publishScheduledPosts();
  },
};

export const createPost = staffWrite({ requires: { permission: "blog.create" }, stales: ["blog"] }, createPostWrite);

export const updatePostByAdmin = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, updatePostByAdminWrite);

export const setPostStatus = staffWrite({ requires: { permission: "blog.publish" }, stales: ["blog"] }, setPostStatusWrite);

export const deletePostByAdmin = staffWrite({ requires: { permission: "blog.delete" }, stales: ["blog"] }, deletePostByAdminWrite);
