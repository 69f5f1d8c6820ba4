/**
 * The blog: posts, categories, tags, comments, likes, views and settings. Pages and /api
 * call these same functions; they throw ApiError (docs/decisions/017-blog.md).
 *
 * Visibility: visitors see published posts whose published_at has passed; any other post
 * answers 404 unless the caller holds blog.edit. Scheduled posts become published by the
 * `blog.publish-scheduled` job (every 15 s, and at start when it is overdue).
 */
import { ApiError } from "~/lib/api.server";
import { htmlToText, postSlugFromTitle, readingTime, slugFromName, summarize, uniqueSlug } from "~/lib/blog-text";
import { getDb, type DB } from "~/lib/db.server";
import { answerDependsOn } from "~/lib/request-scope.server";
import { limitLikes } from "./rate-limit.server";
import { countLinks, sanitizeCommentHtml, sanitizePostHtml } from "~/lib/html-sanitize.server";
import { log } from "~/lib/log.server";
import { plainLine } from "~/lib/text";
import type { Access } from "~/lib/permissions";
import {
  COMMENT_LIKES,
  countCommentsByStatus,
  countPostsByStatus,
  dashboardCounts,
  deleteBlogCategory,
  deleteComment,
  deletePost,
  findBlogCategory,
  findComment,
  findPost,
  findTagBySlug,
  findTagsByNames,
  getBlogSettingsRow,
  hasLiked,
  insertBlogCategory,
  insertComment,
  insertPost,
  insertTag,
  lastCommentAt,
  listBlogCategories,
  listCommentQueue,
  listPostComments,
  listPosts,
  listTags,
  POST_LIKES,
  postNeighbours,
  publicPostStamps,
  publishDuePosts,
  saveBlogSettingsRow,
  searchPostIds,
  setPostTags,
  slugsLike,
  toggleLike,
  updateBlogCategory,
  updateComment,
  updatePost,
  type BlogCategory,
  type BlogComment,
  type BlogPost,
  type BlogSettingsRow,
  type BlogTag,
  type BlogTagWithCount,
  type PostFilter,
  type PostNeighbour,
  type PostOrder,
  type PostRowInput,
  type QueuedComment,
} from "~/models/blog.server";
import type { User } from "~/models/user.server";
import {
  BLOG_MESSAGES as M,
  BLOG_SIDE_LIST_SIZE,
  COMMENT_FLOOD_SECONDS,
  COMMENT_LINKS_MAX,
  type BlogCategoryBody,
  type BlogSettingsBody,
  type CommentBody,
  type CommentStatus,
  type LikeType,
  type PostBody,
  type PostStatus,
  type PostUpdateBody,
} from "~/schemas/blog";
import { countPostViewBy } from "./blog-views.server";
import type { JobDefinition } from "./jobs.server";
import type { SitemapSource } from "./sitemap.server";
import { contentWrite, pagesChanged, staffWrite } from "./writes.server";
import { isUniqueViolation } from "~/lib/db-errors.server";
import { lockedTransaction, serializeOn } from "~/models/sql-dialect.server";

export type { BlogCategory, BlogComment, BlogPost, BlogTag, BlogTagWithCount, PostNeighbour, QueuedComment };

const db = (): DB => getDb();
const now = () => new Date().toISOString();

// ---------------------------------------------------------------- who sees what

/** Holders of blog.edit see every post (drafts, scheduled, private) wherever a visitor sees published ones. */
export function seesAllPosts(access: Pick<Access, "allPermissions"> | null | undefined): boolean {
  return Boolean(access?.allPermissions.includes("blog.edit"));
}

/** Any blog permission: the back office's blog screens (and hidden categories). */
export function worksOnBlog(access: Pick<Access, "allPermissions"> | null | undefined): boolean {
  return Boolean(access?.allPermissions.some((permission) => permission.startsWith("blog.")));
}

export function isPublic(post: Pick<BlogPost, "status" | "publishedAt">, at = now()): boolean {
  return post.status === "published" && post.publishedAt !== null && post.publishedAt <= at;
}

const postNotFound = () => new ApiError(404, M.postNotFound, "NOT_FOUND");
const fieldError = (status: number, field: string, message: string) =>
  new ApiError(status, message, status === 404 ? "NOT_FOUND" : status === 403 ? "FORBIDDEN" : "VALIDATION_ERROR", [{ field, message }]);

// ---------------------------------------------------------------- JSON

/** A post as the API answers it (docs/runtime.md "Blog"). */
export function postJson(post: BlogPost) {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    content: post.content,
    category_id: post.categoryId,
    category_name: post.categoryName,
    category_slug: post.categorySlug,
    status: post.status,
    is_featured: post.isFeatured,
    is_pinned: post.isPinned,
    reading_time: post.readingTime,
    featured_image: post.featuredImage,
    meta_title: post.metaTitle,
    meta_description: post.metaDescription,
    view_count: post.viewCount,
    published_at: post.publishedAt,
    author_username: post.authorUsername,
    author_first_name: post.authorFirstName,
    author_last_name: post.authorLastName,
    tags: post.tags.map(tagJson),
    like_count: post.likeCount,
    comment_count: post.commentCount,
    created_at: post.createdAt,
    updated_at: post.updatedAt,
    url: postPath(post),
  };
}
export type PostJson = ReturnType<typeof postJson>;

export const tagJson = (tag: BlogTag) => ({ id: tag.id, name: tag.name, slug: tag.slug });

export function categoryJson(category: BlogCategory) {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    description: category.description,
    parent_id: category.parentId,
    display_order: category.displayOrder,
    is_visible: category.isVisible,
    post_count: category.postCount,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
  };
}

export function commentJson(comment: BlogComment) {
  return {
    id: comment.id,
    post_id: comment.postId,
    parent_id: comment.parentId,
    content: comment.content,
    status: comment.status,
    author_username: comment.authorUsername,
    like_count: comment.likeCount,
    liked: comment.liked,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
  };
}

export const postPath = (post: Pick<BlogPost, "slug">) => `/blog/${encodeURIComponent(post.slug)}`;

/** The name a post's author goes by: first and last name, else the username. */
export function authorName(post: Pick<BlogPost, "authorFirstName" | "authorLastName" | "authorUsername">): string | null {
  const full = [post.authorFirstName, post.authorLastName].filter(Boolean).join(" ").trim();
  return full || post.authorUsername;
}

/** A post's summary: its excerpt, else the beginning of its text. */
export function postSummary(post: Pick<BlogPost, "excerpt" | "textHead">, max = 200): string {
  return post.excerpt?.trim() || summarize(post.textHead, max);
}

// ---------------------------------------------------------------- settings

export type BlogSettings = Omit<BlogSettingsRow, "updatedAt">;

export async function loadBlogSettings(): Promise<BlogSettings> {
  const { updatedAt: _updatedAt, ...settings } = await getBlogSettingsRow(db());
  return settings;
}

export const blogSettingsJson = (settings: BlogSettings) => ({
  comments_enabled: settings.commentsEnabled,
  comment_moderation: settings.commentModeration,
  posts_per_page: settings.postsPerPage,
});

async function saveBlogSettingsWrite(body: BlogSettingsBody, _actor: Actor): Promise<BlogSettings> {
  await saveBlogSettingsRow(db(), {
    commentsEnabled: body.comments_enabled,
    commentModeration: body.comment_moderation,
    postsPerPage: body.posts_per_page,
  });
  return loadBlogSettings();
}

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
  return countPostViewBy(postId, {
    userAgent: viewer.request.headers.get("User-Agent"),
    incrementView: new URL(viewer.request.url).searchParams.get("incrementView"),
    clientIp: viewer.clientIp,
    userId: viewer.userId,
  });
}

// ---------------------------------------------------------------- writing posts

export type Actor = { user: User; access: Access };

const has = (actor: Actor, permission: string) => actor.access.allPermissions.includes(permission);

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

// ---------------------------------------------------------------- categories

/** A category's id and those of everything below it. */
export function descendantIds(all: BlogCategory[], id: number, includeSelf: boolean): number[] {
  const ids: number[] = includeSelf ? [id] : [];
  const queue = [id];
  const seen = new Set(queue);
  while (queue.length) {
    const parent = queue.shift()!;
    for (const child of all) {
      if (child.parentId === parent && !seen.has(child.id)) {
        seen.add(child.id);
        ids.push(child.id);
        queue.push(child.id);
      }
    }
  }
  return ids;
}

export type CategoryNode = BlogCategory & { depth: number; children: CategoryNode[] };

/** The categories as a tree, each level in display order. */
export function categoryTree(all: BlogCategory[]): CategoryNode[] {
  const known = new Set(all.map((c) => c.id));
  const build = (parentId: number | null, depth: number, path: Set<number>): CategoryNode[] =>
    all
      .filter((c) => (parentId === null ? c.parentId === null || !known.has(c.parentId) : c.parentId === parentId) && !path.has(c.id))
      .map((c) => ({ ...c, depth, children: build(c.id, depth + 1, new Set([...path, c.id])) }));
  return build(null, 0, new Set());
}

/** The tree flattened in display order (what a select or an indented list shows). */
export function flattenTree(nodes: CategoryNode[]): CategoryNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children)]);
}

/** Categories for a caller: visitors see the visible ones, blog staff all. */
export async function listCategoriesFor(access?: Access | null): Promise<BlogCategory[]> {
  const all = await listBlogCategories(db());
  return worksOnBlog(access) ? all : all.filter((category) => category.isVisible && !hasHiddenAncestor(all, category));
}

function hasHiddenAncestor(all: BlogCategory[], category: BlogCategory): boolean {
  const byId = new Map(all.map((c) => [c.id, c]));
  let parent = category.parentId !== null ? byId.get(category.parentId) : undefined;
  const seen = new Set<number>();
  while (parent && !seen.has(parent.id)) {
    if (!parent.isVisible) return true;
    seen.add(parent.id);
    parent = parent.parentId !== null ? byId.get(parent.parentId) : undefined;
  }
  return false;
}

export async function getBlogCategory(id: number, from: DB = db()): Promise<BlogCategory> {
  const category = await findBlogCategory(from, { id });
  if (!category) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
  return category;
}

async function freeCategorySlug(trx: DB, base: string, exceptId?: number): Promise<string> {
  return uniqueSlug(base, await slugsLike(trx, "blog_categories", base, exceptId));
}

/** A parent must exist, and (on edit) be neither the category itself nor below it. */
async function assertParent(trx: DB, parentId: number | null | undefined, selfId?: number): Promise<void> {
  if (!parentId) return;
  if (parentId === selfId) throw fieldError(400, "parent_id", M.categoryOwnParent);
  const all = await listBlogCategories(trx);
  if (!all.some((c) => c.id === parentId)) throw fieldError(400, "parent_id", M.categoryNotFound);
  if (selfId !== undefined && descendantIds(all, selfId, false).includes(parentId))
    throw fieldError(400, "parent_id", M.categoryUnderDescendant);
}

/**
 * A change to the blog categories' slugs or nesting checks the others first, then writes:
 * such changes take turns (across instances on PostgreSQL; decision 030), so a double
 * submit cannot take one slug twice, nor two crossing moves make a loop.
 */
function blogCategoryWrite<T>(work: (trx: DB) => Promise<T>): Promise<T> {
  return lockedTransaction(db(), "blog-categories", work);
}

async function createBlogCategoryWrite(body: BlogCategoryBody, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    await assertParent(trx, body.parent_id);
    const base = (body.slug ? slugFromName(body.slug) : "") || slugFromName(body.name) || "category";
    const id = await insertBlogCategory(trx, {
      name: body.name,
      slug: await freeCategorySlug(trx, base),
      description: body.description ?? null,
      parentId: body.parent_id ?? null,
      displayOrder: body.display_order ?? 0,
      isVisible: body.is_visible ?? true,
    });
    return getBlogCategory(id, trx);
  });
}

async function updateBlogCategoryByAdminWrite(id: number, body: Partial<BlogCategoryBody>, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    const current = await getBlogCategory(id, trx);
    if (body.parent_id !== undefined) await assertParent(trx, body.parent_id, id);
    let slug: string | undefined;
    if (body.slug !== undefined) {
      const base = (body.slug ? slugFromName(body.slug) : "") || slugFromName(body.name ?? current.name) || "category";
      if (base !== current.slug) slug = await freeCategorySlug(trx, base, id);
    }
    await updateBlogCategory(trx, id, {
      name: body.name,
      slug,
      description: body.description !== undefined ? (body.description ?? null) : undefined,
      parentId: body.parent_id !== undefined ? (body.parent_id ?? null) : undefined,
      displayOrder: body.display_order,
      isVisible: body.is_visible,
    });
    return getBlogCategory(id, trx);
  });
}

/** Deletes a category: its subcategories move up to its parent, its posts become uncategorised. */
async function deleteBlogCategoryByAdminWrite(id: number, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    const category = await getBlogCategory(id, trx);
    await deleteBlogCategory(trx, id, category.parentId);
    return category;
  });
}

// ---------------------------------------------------------------- tags

/** Tags with their public post counts (those without public posts too: the API lists every tag). */
export function listTagsWithCounts(): Promise<BlogTagWithCount[]> {
  return listTags(db());
}

// ---------------------------------------------------------------- comments

/** A post's approved comments plus the viewer's own pending ones (404 when the post is not visible). */
export async function listComments(postId: number, viewer: Actor | null): Promise<BlogComment[]> {
  await getPost({ id: postId }, viewer?.access);
  return listPostComments(db(), postId, viewer?.user.id ?? null);
}

/** Staff comments are never held: they moderate the others. */
const moderatesComments = (actor: Actor) => has(actor, "blog.edit");

/**
 * Adds a comment (logged-in users): refused when comments are off (403) or the same user
 * commented less than 15 s ago (429); held for moderation when moderation is on or it has
 * more than 2 links; a reply goes under the top comment it answers (one level).
 */
async function addCommentWrite(postId: number, body: CommentBody, actor: Actor): Promise<BlogComment> {
  const settings = await loadBlogSettings();
  if (!settings.commentsEnabled) throw new ApiError(403, M.commentsClosed, "COMMENTS_CLOSED");
  await getPost({ id: postId }, actor.access);
  const content = sanitizeCommentHtml(body.content);
  if (!htmlToText(content)) throw fieldError(400, "content", M.commentEmpty);
  let parentId: number | null = null;
  if (body.parent_id) {
    const parent = await findComment(db(), body.parent_id);
    if (!parent || parent.postId !== postId || parent.status !== "approved") throw fieldError(400, "parent_id", M.commentParentInvalid);
    parentId = parent.parentId ?? parent.id;
  }
  const staff = moderatesComments(actor);
  const held = !staff && (settings.commentModeration || countLinks(content) > COMMENT_LINKS_MAX);
  // checked and written in one transaction that the author's other comments wait for
  // (on PostgreSQL a transaction alone would let two quick posts both pass)
  const id = await lockedTransaction(db(), `comment-flood:${actor.user.id}`, async (trx) => {
    const last = await lastCommentAt(trx, actor.user.id);
    if (last) {
      const wait = COMMENT_FLOOD_SECONDS - Math.floor((Date.now() - Date.parse(last)) / 1000);
      if (wait > 0) throw new ApiError(429, M.commentFlood(wait), "COMMENT_FLOOD", undefined, { retryAfter: wait });
    }
    return insertComment(trx, { postId, parentId, userId: actor.user.id, content, status: held ? "pending" : "approved" });
  });
  return (await findComment(db(), id, actor.user.id))!;
}

async function ownedComment(id: number, actor: Actor): Promise<BlogComment> {
  const comment = await findComment(db(), id, actor.user.id);
  if (!comment) throw new ApiError(404, M.commentNotFound, "NOT_FOUND");
  if (comment.userId !== actor.user.id && !moderatesComments(actor)) throw new ApiError(403, M.commentNotYours, "FORBIDDEN");
  return comment;
}

/** Its author or a blog.edit holder changes a comment; an author's edit with many links waits for moderation again. */
async function editCommentWrite(id: number, body: { content: string }, actor: Actor): Promise<BlogComment> {
  const comment = await ownedComment(id, actor);
  const content = sanitizeCommentHtml(body.content);
  if (!htmlToText(content)) throw fieldError(400, "content", M.commentEmpty);
  const settings = await loadBlogSettings();
  const heldAgain =
    !moderatesComments(actor) && comment.status === "approved" && (settings.commentModeration || countLinks(content) > COMMENT_LINKS_MAX);
  await updateComment(db(), id, { content, ...(heldAgain ? { status: "pending" as const } : {}) });
  return (await findComment(db(), id, actor.user.id))!;
}

async function removeCommentWrite(id: number, actor: Actor): Promise<BlogComment> {
  const comment = await ownedComment(id, actor);
  await deleteComment(db(), id);
  return comment;
}

/** PUT /comments/:id/moderate (blog.edit). */
async function moderateCommentWrite(id: number, status: CommentStatus, _actor: Actor): Promise<BlogComment> {
  const comment = await findComment(db(), id);
  if (!comment) throw new ApiError(404, M.commentNotFound, "NOT_FOUND");
  await updateComment(db(), id, { status });
  return (await findComment(db(), id))!;
}

export async function commentQueue(query: { status: CommentStatus | "all"; page: number; limit: number }) {
  const [list, counts] = await Promise.all([
    listCommentQueue(db(), { status: query.status === "all" ? null : query.status, page: query.page, limit: query.limit }),
    countCommentsByStatus(db()),
  ]);
  const totalPages = Math.max(1, Math.ceil(list.total / query.limit));
  return { comments: list.items, total: list.total, page: Math.min(query.page, totalPages), totalPages, counts };
}

// ---------------------------------------------------------------- likes

/** Likes a post, or takes the like back (one per user). */
async function likePostWrite(postId: number, actor: Actor, type: LikeType): Promise<{ liked: boolean; like_count: number }> {
  await getPost({ id: postId }, actor.access);
  await limitLikes(actor.user.id);
  const result = await db()
    .transaction()
    .execute((trx) => toggleLike(trx, POST_LIKES, postId, actor.user.id, type));
  return { liked: result.liked, like_count: result.likeCount };
}

/** Likes an approved comment of a visible post, or takes the like back. */
async function likeCommentWrite(
  commentId: number,
  actor: Actor,
  type: LikeType,
): Promise<{ liked: boolean; like_count: number; post_id: number }> {
  const comment = await findComment(db(), commentId);
  if (!comment || (comment.status !== "approved" && comment.userId !== actor.user.id))
    throw new ApiError(404, M.commentNotFound, "NOT_FOUND");
  await getPost({ id: comment.postId }, actor.access);
  await limitLikes(actor.user.id);
  const result = await db()
    .transaction()
    .execute((trx) => toggleLike(trx, COMMENT_LIKES, commentId, actor.user.id, type));
  return { liked: result.liked, like_count: result.likeCount, post_id: comment.postId };
}

export async function viewerLikesPost(postId: number, userId: number): Promise<boolean> {
  return hasLiked(db(), POST_LIKES, postId, userId);
}

// ---------------------------------------------------------------- dashboard

/** The dashboard's blog box: public posts and comments waiting (one query). */
export function blogDashboardCounts(): Promise<{ published: number; pendingComments: number }> {
  return dashboardCounts(db(), now());
}

// ---------------------------------------------------------------- sitemap

const SITEMAP_POSTS_MAX = 5_000;

/** The blog's public URLs for /sitemap.xml: the blog, its posts, visible categories and used tags. */
export const blogSitemapSources: SitemapSource[] = [
  {
    name: "blog",
    entries: async () => {
      const posts = await publicPostStamps(db(), SITEMAP_POSTS_MAX);
      return [
        { path: "/blog", lastmod: posts[0]?.updatedAt.slice(0, 10), changefreq: "daily" as const, priority: 0.7 },
        ...posts.map((post) => ({
          path: `/blog/${encodeURIComponent(post.slug)}`,
          lastmod: post.updatedAt.slice(0, 10),
          changefreq: "weekly" as const,
          priority: 0.6,
        })),
      ];
    },
  },
  {
    name: "blog-taxonomy",
    entries: async () => {
      const [categories, tags] = await Promise.all([listCategoriesFor(null), listTags(db())]);
      return [
        ...categories.map((category) => ({
          path: `/blog/category/${encodeURIComponent(category.slug)}`,
          changefreq: "weekly" as const,
          priority: 0.4,
        })),
        ...tags
          .filter((tag) => tag.postCount > 0)
          .map((tag) => ({ path: `/blog/tag/${encodeURIComponent(tag.slug)}`, changefreq: "weekly" as const, priority: 0.3 })),
      ];
    },
  },
];

// ---------------------------------------------------------------- the writes (app/services/writes.server.ts)

export const saveBlogSettings = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, saveBlogSettingsWrite);
export const createPost = staffWrite({ requires: { permission: "blog.create" }, stales: ["blog"] }, createPostWrite);
export const updatePostByAdmin = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, updatePostByAdminWrite);
export const setPostStatus = staffWrite({ requires: { permission: "blog.publish" }, stales: ["blog"] }, setPostStatusWrite);
export const deletePostByAdmin = staffWrite({ requires: { permission: "blog.delete" }, stales: ["blog"] }, deletePostByAdminWrite);
export const createBlogCategory = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  createBlogCategoryWrite,
);
export const updateBlogCategoryByAdmin = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  updateBlogCategoryByAdminWrite,
);
export const deleteBlogCategoryByAdmin = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  deleteBlogCategoryByAdminWrite,
);
export const addComment = contentWrite({ stales: ["blog"] }, addCommentWrite);
export const editComment = contentWrite({ stales: ["blog"] }, editCommentWrite);
export const removeComment = contentWrite({ stales: ["blog"] }, removeCommentWrite);
export const moderateComment = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, moderateCommentWrite);
export const likePost = contentWrite({ stales: ["blog"] }, likePostWrite);
export const likeComment = contentWrite({ stales: ["blog"] }, likeCommentWrite);
