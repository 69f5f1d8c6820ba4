/**
 * The blog's queries: categories (a tree), posts with their category, author, tags,
 * likes and comment counts, full-text search, comments, likes, views and the settings.
 * "Public" means what visitors may see: published posts whose time has come.
 */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { caseless, likeAnywherePostgres, onPostgres, serializeOn } from "./sql-dialect.server";
import { COMMENT_STATUSES, POST_STATUSES } from "~/schemas/blog-rules";
import type { BlogCommentStatus, BlogPostStatus } from "../../db/schema";

export type { BlogCommentStatus, BlogPostStatus };

// ---------------------------------------------------------------- types

export type BlogCategory = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  parentId: number | null;
  displayOrder: number;
  isVisible: boolean;
  /** public posts filed directly under it */
  postCount: number;
  /** posts of any status filed directly under it (the back office) */
  allPostCount: number;
  createdAt: string;
  updatedAt: string;
};

export type BlogTag = { id: number; name: string; slug: string };
export type BlogTagWithCount = BlogTag & { postCount: number };

export type BlogPost = {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  /** sanitised HTML; "" when the query did not ask for it */
  content: string;
  /** the beginning of the plain text (for summaries) */
  textHead: string;
  categoryId: number | null;
  categoryName: string | null;
  categorySlug: string | null;
  /** false when the post's category is hidden (its page answers 404 to visitors) */
  categoryVisible: boolean;
  authorId: number | null;
  authorUsername: string | null;
  authorFirstName: string | null;
  authorLastName: string | null;
  status: BlogPostStatus;
  isFeatured: boolean;
  isPinned: boolean;
  readingTime: number;
  featuredImage: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  viewCount: number;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  likeCount: number;
  commentCount: number;
  tags: BlogTag[];
};

export type BlogComment = {
  id: number;
  postId: number;
  parentId: number | null;
  userId: number;
  authorUsername: string;
  authorAvatarUrl: string | null;
  content: string;
  status: BlogCommentStatus;
  likeCount: number;
  /** whether the viewer the list was read for likes it */
  liked: boolean;
  createdAt: string;
  updatedAt: string;
};

export type QueuedComment = BlogComment & { postTitle: string; postSlug: string };

export type BlogSettingsRow = { commentsEnabled: boolean; commentModeration: boolean; postsPerPage: number; updatedAt: string };

const nowIso = () => new Date().toISOString();

// ---------------------------------------------------------------- categories

type CategoryRow = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  parent_id: number | null;
  display_order: number;
  is_visible: number;
  created_at: string;
  updated_at: string;
  post_count: number;
  all_post_count: number;
};

const toCategory = (row: CategoryRow): BlogCategory => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  parentId: row.parent_id,
  displayOrder: row.display_order,
  isVisible: row.is_visible === 1,
  postCount: Number(row.post_count ?? 0),
  allPostCount: Number(row.all_post_count ?? 0),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Every category with its post counts, ordered by display_order then name. */
export async function listBlogCategories(db: DB, now = nowIso()): Promise<BlogCategory[]> {
  const { rows } = await sql<CategoryRow>`
    SELECT c.*,
      (SELECT count(*) FROM blog_posts p WHERE p.category_id = c.id AND p.status = 'published' AND p.published_at <= ${now}) AS post_count,
      (SELECT count(*) FROM blog_posts p WHERE p.category_id = c.id) AS all_post_count
    FROM blog_categories c ORDER BY c.display_order, ${caseless(db, sql`c.name`)}, c.id`.execute(db);
  return rows.map(toCategory);
}

export async function findBlogCategory(db: DB, where: { id: number } | { slug: string }): Promise<BlogCategory | undefined> {
  const all = await listBlogCategories(db);
  return all.find((category) => ("id" in where ? category.id === where.id : category.slug === where.slug));
}

export type BlogCategoryInput = {
  name: string;
  slug: string;
  description: string | null;
  parentId: number | null;
  displayOrder: number;
  isVisible: boolean;
};

export async function insertBlogCategory(db: DB, input: BlogCategoryInput): Promise<number> {
  const row = await db
    .insertInto("blog_categories")
    .values({
      name: input.name,
      slug: input.slug,
      description: input.description,
      parent_id: input.parentId,
      display_order: input.displayOrder,
      is_visible: input.isVisible ? 1 : 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateBlogCategory(db: DB, id: number, changes: Partial<BlogCategoryInput>): Promise<void> {
  await db
    .updateTable("blog_categories")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.slug !== undefined ? { slug: changes.slug } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
      ...(changes.displayOrder !== undefined ? { display_order: changes.displayOrder } : {}),
      ...(changes.isVisible !== undefined ? { is_visible: changes.isVisible ? 1 : 0 } : {}),
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .execute();
}

/** Deletes a category: its subcategories move up to its parent, its posts become uncategorised. */
export async function deleteBlogCategory(db: DB, id: number, parentId: number | null): Promise<boolean> {
  await db.updateTable("blog_categories").set({ parent_id: parentId, updated_at: nowIso() }).where("parent_id", "=", id).execute();
  await db.updateTable("blog_posts").set({ category_id: null }).where("category_id", "=", id).execute();
  const result = await db.deleteFrom("blog_categories").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Slugs of a table equal to `base` or `base-…` (what a new slug must not repeat). */
export async function slugsLike(
  db: DB,
  table: "blog_posts" | "blog_categories" | "blog_tags",
  base: string,
  exceptId?: number,
): Promise<Set<string>> {
  let query = db
    .selectFrom(table)
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return new Set((await query.execute()).map((row) => row.slug));
}

// ---------------------------------------------------------------- tags

export async function listTags(db: DB, now = nowIso()): Promise<BlogTagWithCount[]> {
  const { rows } = await sql<{ id: number; name: string; slug: string; post_count: number }>`
    SELECT t.id, t.name, t.slug,
      (SELECT count(*) FROM blog_post_tags pt JOIN blog_posts p ON p.id = pt.post_id
        WHERE pt.tag_id = t.id AND p.status = 'published' AND p.published_at <= ${now}) AS post_count
    FROM blog_tags t ORDER BY post_count DESC, ${caseless(db, sql`t.name`)}`.execute(db);
  return rows.map((row) => ({ id: row.id, name: row.name, slug: row.slug, postCount: Number(row.post_count) }));
}

export async function findTagBySlug(db: DB, slug: string): Promise<BlogTag | undefined> {
  return db.selectFrom("blog_tags").select(["id", "name", "slug"]).where("slug", "=", slug).executeTakeFirst();
}

export async function findTagsByNames(db: DB, names: string[]): Promise<BlogTag[]> {
  if (!names.length) return [];
  const { rows } =
    await sql<BlogTag>`SELECT id, name, slug FROM blog_tags WHERE ${caseless(db, sql`name`)} IN (${sql.join(onPostgres(db) ? names.map((name) => name.toLowerCase()) : names)})`.execute(
      db,
    );
  return rows;
}

export async function insertTag(db: DB, name: string, slug: string): Promise<BlogTag> {
  return db.insertInto("blog_tags").values({ name, slug }).returning(["id", "name", "slug"]).executeTakeFirstOrThrow();
}

/** Sets a post's tags to exactly these; tags no post uses any more are removed. */
export async function setPostTags(db: DB, postId: number, tagIds: number[]): Promise<void> {
  await db.deleteFrom("blog_post_tags").where("post_id", "=", postId).execute();
  if (tagIds.length)
    await db
      .insertInto("blog_post_tags")
      .values(tagIds.map((tagId) => ({ post_id: postId, tag_id: tagId })))
      .execute();
  await deleteUnusedTags(db);
}

export async function deleteUnusedTags(db: DB): Promise<void> {
  await sql`DELETE FROM blog_tags WHERE NOT EXISTS (SELECT 1 FROM blog_post_tags pt WHERE pt.tag_id = blog_tags.id)`.execute(db);
}

async function tagsOfPosts(db: DB, postIds: number[]): Promise<Map<number, BlogTag[]>> {
  const byPost = new Map<number, BlogTag[]>();
  if (!postIds.length) return byPost;
  const rows = await db
    .selectFrom("blog_post_tags as pt")
    .innerJoin("blog_tags as t", "t.id", "pt.tag_id")
    .select(["pt.post_id", "t.id", "t.name", "t.slug"])
    .where("pt.post_id", "in", postIds)
    .orderBy("t.name")
    .execute();
  for (const row of rows) {
    const list = byPost.get(row.post_id) ?? [];
    list.push({ id: row.id, name: row.name, slug: row.slug });
    byPost.set(row.post_id, list);
  }
  return byPost;
}

// ---------------------------------------------------------------- posts

type PostRow = {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  content: string | null;
  text_head: string;
  category_id: number | null;
  category_name: string | null;
  category_slug: string | null;
  category_visible: number | null;
  author_id: number | null;
  author_username: string | null;
  author_first_name: string | null;
  author_last_name: string | null;
  status: BlogPostStatus;
  is_featured: number;
  is_pinned: number;
  reading_time: number;
  featured_image: string | null;
  meta_title: string | null;
  meta_description: string | null;
  view_count: number;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  like_count: number;
  comment_count: number;
};

const toPost = (row: PostRow, tags: BlogTag[]): BlogPost => ({
  id: row.id,
  title: row.title,
  slug: row.slug,
  excerpt: row.excerpt,
  content: row.content ?? "",
  textHead: row.text_head ?? "",
  categoryId: row.category_id,
  categoryName: row.category_name,
  categorySlug: row.category_slug,
  categoryVisible: row.category_visible === 1,
  authorId: row.author_id,
  authorUsername: row.author_username,
  authorFirstName: row.author_first_name,
  authorLastName: row.author_last_name,
  status: row.status,
  isFeatured: row.is_featured === 1,
  isPinned: row.is_pinned === 1,
  readingTime: row.reading_time,
  featuredImage: row.featured_image,
  metaTitle: row.meta_title,
  metaDescription: row.meta_description,
  viewCount: row.view_count,
  publishedAt: row.published_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  likeCount: Number(row.like_count),
  commentCount: Number(row.comment_count),
  tags,
});

/** The columns of a post as domain objects need them (content only when asked: it is large). */
function postColumns(withContent: boolean) {
  return sql`p.id, p.title, p.slug, p.excerpt, ${withContent ? sql`p.content` : sql`NULL`} AS content,
    substr(p.content_text, 1, 400) AS text_head, p.category_id, c.name AS category_name, c.slug AS category_slug, c.is_visible AS category_visible,
    p.author_id, u.username AS author_username, u.first_name AS author_first_name, u.last_name AS author_last_name,
    p.status, p.is_featured, p.is_pinned, p.reading_time, p.featured_image, p.meta_title, p.meta_description,
    p.view_count, p.published_at, p.created_at, p.updated_at,
    (SELECT count(*) FROM blog_post_likes l WHERE l.post_id = p.id) AS like_count,
    (SELECT count(*) FROM blog_comments m WHERE m.post_id = p.id AND m.status = 'approved') AS comment_count`;
}

const POST_JOINS = sql`FROM blog_posts p LEFT JOIN blog_categories c ON c.id = p.category_id LEFT JOIN users u ON u.id = p.author_id`;

async function withTags(db: DB, rows: PostRow[]): Promise<BlogPost[]> {
  const tags = await tagsOfPosts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPost(row, tags.get(row.id) ?? []));
}

export async function findPost(db: DB, where: { id: number } | { slug: string }): Promise<BlogPost | undefined> {
  const condition = "id" in where ? sql`p.id = ${where.id}` : sql`p.slug = ${where.slug}`;
  const { rows } = await sql<PostRow>`SELECT ${postColumns(true)} ${POST_JOINS} WHERE ${condition}`.execute(db);
  return rows.length ? (await withTags(db, rows))[0] : undefined;
}

export type PostFilter = {
  /** only published posts whose published_at has passed, as of `now` */
  publicOnly?: { now: string };
  status?: BlogPostStatus;
  categoryIds?: number[];
  tagId?: number;
  featured?: boolean;
  /** a case-insensitive text search over title and excerpt (the back office's search box) */
  titleContains?: string;
  /**
   * full-text search: ranked ids from searchPostIds() (null: no full-text part), short terms
   * matched as text, and the whole query (lowercased, single spaces): titles holding it rank first
   */
  search?: { rankedIds: number[] | null; shortTerms: string[]; phrase?: string };
};

export type PostOrder = "latest" | "pinned" | "popular" | "updated" | "relevance";

function filterSql(filter: PostFilter) {
  const conditions = [sql`1 = 1`];
  if (filter.publicOnly) conditions.push(sql`p.status = 'published' AND p.published_at <= ${filter.publicOnly.now}`);
  if (filter.status) conditions.push(sql`p.status = ${filter.status}`);
  if (filter.categoryIds) {
    conditions.push(filter.categoryIds.length ? sql`p.category_id IN (${sql.join(filter.categoryIds)})` : sql`0 = 1`);
  }
  if (filter.tagId !== undefined)
    conditions.push(sql`EXISTS (SELECT 1 FROM blog_post_tags pt WHERE pt.post_id = p.id AND pt.tag_id = ${filter.tagId})`);
  if (filter.featured) conditions.push(sql`p.is_featured = 1`);
  if (filter.titleContains) {
    const needle = filter.titleContains.toLowerCase();
    conditions.push(
      sql`(instr(lower(p.title), ${needle}) > 0 OR instr(lower(coalesce(p.excerpt, '')), ${needle}) > 0 OR instr(lower(p.slug), ${needle}) > 0)`,
    );
  }
  if (filter.search) {
    if (filter.search.rankedIds) {
      conditions.push(filter.search.rankedIds.length ? sql`p.id IN (${sql.join(filter.search.rankedIds)})` : sql`0 = 1`);
    }
    for (const term of filter.search.shortTerms) {
      const needle = term.toLowerCase();
      conditions.push(sql`instr(lower(p.title || ' ' || coalesce(p.excerpt, '') || ' ' || p.content_text), ${needle}) > 0`);
    }
  }
  return sql.join(conditions, sql` AND `);
}

function orderSql(order: PostOrder, filter: PostFilter) {
  const byDate = sql`coalesce(p.published_at, p.created_at) DESC, p.id DESC`;
  switch (order) {
    case "pinned":
      return sql`p.is_pinned DESC, ${byDate}`;
    case "popular":
      return sql`p.view_count DESC, ${byDate}`;
    case "updated":
      return sql`p.updated_at DESC, p.id DESC`;
    case "relevance": {
      const ranked = filter.search?.rankedIds;
      const phrase = filter.search?.phrase;
      // a title holding the whole query first (the index does not weigh short terms such as "3" or 两字 words)
      const titleFirst = phrase ? sql`(instr(lower(p.title), ${phrase}) > 0) DESC, ` : sql``;
      // then the position in the ranked list (a comma-joined text: no query per id)
      return ranked?.length
        ? sql`${titleFirst}instr(${`,${ranked.join(",")},`}, ',' || p.id || ',') ASC, ${byDate}`
        : sql`${titleFirst}${byDate}`;
    }
    default:
      return byDate;
  }
}

export type PostPage = { items: BlogPost[]; total: number };

export async function listPosts(
  db: DB,
  filter: PostFilter,
  options: { order: PostOrder; page: number; limit: number; withContent?: boolean },
): Promise<PostPage> {
  const where = filterSql(filter);
  const offset = (options.page - 1) * options.limit;
  const [{ rows }, count] = await Promise.all([
    sql<PostRow>`SELECT ${postColumns(options.withContent ?? false)} ${POST_JOINS} WHERE ${where}
      ORDER BY ${orderSql(options.order, filter)} LIMIT ${options.limit} OFFSET ${offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*) AS n FROM blog_posts p WHERE ${where}`.execute(db),
  ]);
  return { items: await withTags(db, rows), total: Number(count.rows[0]?.n ?? 0) };
}

/** Ids of the most read public posts, in the order of the blog's popular list. */
export async function popularPostIds(db: DB, limit: number, now = nowIso()): Promise<number[]> {
  const filter: PostFilter = { publicOnly: { now } };
  const { rows } = await sql<{ id: number }>`SELECT p.id FROM blog_posts p WHERE ${filterSql(filter)}
    ORDER BY ${orderSql("popular", filter)} LIMIT ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

/** FTS5 phrases: each term quoted (user input never reaches the query syntax). */
const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * Ids of the posts whose title, excerpt or text hold every term of 3+ characters (the
 * trigram index), best match first (title weighs most). At most `cap`.
 */
export async function searchPostIds(db: DB, longTerms: string[], cap = 2000): Promise<number[]> {
  if (!longTerms.length) return [];
  if (onPostgres(db)) return searchPostIdsPostgres(db, longTerms, cap);
  const query = longTerms.map(phrase).join(" AND ");
  const { rows } = await sql<{ id: number }>`
    WITH hits AS (SELECT rowid AS id, bm25(blog_posts_fts, 10.0, 4.0, 1.0) AS rank FROM blog_posts_fts WHERE blog_posts_fts MATCH ${query})
    SELECT id FROM hits ORDER BY rank LIMIT ${cap}`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * searchPostIds() on PostgreSQL: the trigram index over the lowercased title, excerpt and
 * text (migration 20261124120000_blog) finds the posts holding every term; a term in the
 * title weighs 10, in the excerpt 4, in the text 1 (bm25's weights on SQLite), newest first
 * among equals.
 */
async function searchPostIdsPostgres(db: DB, longTerms: string[], cap: number): Promise<number[]> {
  const text = sql`lower(p.title || ' ' || coalesce(p.excerpt, '') || ' ' || p.content_text)`;
  const terms = longTerms.map((term) => term.toLowerCase());
  const holds = terms.map((term) => sql`${text} LIKE ${likeAnywherePostgres(term)}`);
  const score = terms.map(
    (term) => sql`(CASE WHEN instr(lower(p.title), ${term}) > 0 THEN 10 ELSE 0 END
      + CASE WHEN instr(lower(coalesce(p.excerpt, '')), ${term}) > 0 THEN 4 ELSE 0 END + 1)`,
  );
  const { rows } = await sql<{ id: number }>`SELECT p.id FROM blog_posts p WHERE ${sql.join(holds, sql` AND `)}
    ORDER BY ${sql.join(score, sql` + `)} DESC, p.id DESC LIMIT ${cap}`.execute(db);
  return rows.map((row) => row.id);
}

export type PostNeighbour = { id: number; slug: string; title: string };

/** The public posts just before (older) and after (newer) a post, by publication time. */
export async function postNeighbours(
  db: DB,
  post: { id: number; publishedAt: string | null },
  now = nowIso(),
): Promise<{ previous: PostNeighbour | null; next: PostNeighbour | null }> {
  const at = post.publishedAt ?? "";
  const visible = sql`status = 'published' AND published_at <= ${now} AND id != ${post.id}`;
  const [older, newer] = await Promise.all([
    sql<PostNeighbour>`SELECT id, slug, title FROM blog_posts WHERE ${visible}
      AND (published_at < ${at} OR (published_at = ${at} AND id < ${post.id})) ORDER BY published_at DESC, id DESC LIMIT 1`.execute(db),
    sql<PostNeighbour>`SELECT id, slug, title FROM blog_posts WHERE ${visible}
      AND (published_at > ${at} OR (published_at = ${at} AND id > ${post.id})) ORDER BY published_at ASC, id ASC LIMIT 1`.execute(db),
  ]);
  return { previous: older.rows[0] ?? null, next: newer.rows[0] ?? null };
}

export type PostRowInput = {
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  contentText: string;
  categoryId: number | null;
  status: BlogPostStatus;
  isFeatured: boolean;
  isPinned: boolean;
  readingTime: number;
  featuredImage: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  publishedAt: string | null;
};

function postValues(input: Partial<PostRowInput>) {
  return {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(input.excerpt !== undefined ? { excerpt: input.excerpt } : {}),
    ...(input.content !== undefined ? { content: input.content } : {}),
    ...(input.contentText !== undefined ? { content_text: input.contentText } : {}),
    ...(input.categoryId !== undefined ? { category_id: input.categoryId } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.isFeatured !== undefined ? { is_featured: input.isFeatured ? 1 : 0 } : {}),
    ...(input.isPinned !== undefined ? { is_pinned: input.isPinned ? 1 : 0 } : {}),
    ...(input.readingTime !== undefined ? { reading_time: input.readingTime } : {}),
    ...(input.featuredImage !== undefined ? { featured_image: input.featuredImage } : {}),
    ...(input.metaTitle !== undefined ? { meta_title: input.metaTitle } : {}),
    ...(input.metaDescription !== undefined ? { meta_description: input.metaDescription } : {}),
    ...(input.publishedAt !== undefined ? { published_at: input.publishedAt } : {}),
  };
}

export async function insertPost(db: DB, input: PostRowInput, authorId: number | null): Promise<number> {
  const row = await db
    .insertInto("blog_posts")
    .values({ ...postValues(input), title: input.title, slug: input.slug, content: input.content, author_id: authorId })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePost(db: DB, id: number, changes: Partial<PostRowInput>): Promise<void> {
  await db
    .updateTable("blog_posts")
    .set({ ...postValues(changes), updated_at: nowIso() })
    .where("id", "=", id)
    .execute();
}

export async function deletePost(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("blog_posts").where("id", "=", id).executeTakeFirst();
  await deleteUnusedTags(db);
  return Number(result.numDeletedRows) > 0;
}

export async function addPostView(db: DB, id: number): Promise<void> {
  await db
    .updateTable("blog_posts")
    .set((eb) => ({ view_count: eb("view_count", "+", 1) }))
    .where("id", "=", id)
    .execute();
}

/** Scheduled posts whose time has come become published; answers them. */
export async function publishDuePosts(db: DB, now = nowIso()): Promise<Array<{ id: number; title: string }>> {
  return db
    .updateTable("blog_posts")
    .set({ status: "published", updated_at: now })
    .where("status", "=", "scheduled")
    .where("published_at", "is not", null)
    .where("published_at", "<=", now)
    .returning(["id", "title"])
    .execute();
}

/** Public posts for the sitemap and the feeds' dates: slug and last change, newest first. */
export async function publicPostStamps(
  db: DB,
  limit: number,
  now = nowIso(),
): Promise<Array<{ slug: string; updatedAt: string; publishedAt: string }>> {
  const rows = await db
    .selectFrom("blog_posts")
    .select(["slug", "updated_at", "published_at"])
    .where("status", "=", "published")
    .where("published_at", "<=", now)
    .orderBy("published_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, updatedAt: row.updated_at, publishedAt: row.published_at! }));
}

/** The newest change of any post, whatever its status (the feeds' Last-Modified: a post leaving them changes them too). */
export async function lastPostChange(db: DB): Promise<string | null> {
  const row = await db
    .selectFrom("blog_posts")
    .select((eb) => eb.fn.max("updated_at").as("at"))
    .executeTakeFirst();
  return row?.at ?? null;
}

/** Rows of a table counted by status, every status present (0 when none). */
async function countByStatus<S extends string>(
  db: DB,
  table: "blog_posts" | "blog_comments",
  statuses: readonly S[],
): Promise<Record<S, number>> {
  const { rows } = await sql<{ status: S; n: number }>`SELECT status, count(*) AS n FROM ${sql.table(table)} GROUP BY status`.execute(db);
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Posts counted by status (the back office's filter tabs). */
export function countPostsByStatus(db: DB): Promise<Record<BlogPostStatus, number>> {
  return countByStatus(db, "blog_posts", POST_STATUSES);
}

// ---------------------------------------------------------------- comments

type CommentRow = {
  id: number;
  post_id: number;
  parent_id: number | null;
  user_id: number;
  author_username: string;
  author_avatar_url: string | null;
  content: string;
  status: BlogCommentStatus;
  like_count: number;
  liked: number;
  created_at: string;
  updated_at: string;
};

const toComment = (row: CommentRow): BlogComment => ({
  id: row.id,
  postId: row.post_id,
  parentId: row.parent_id,
  userId: row.user_id,
  authorUsername: row.author_username,
  authorAvatarUrl: row.author_avatar_url,
  content: row.content,
  status: row.status,
  likeCount: Number(row.like_count),
  liked: Number(row.liked) > 0,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function commentColumns(viewerId: number | null) {
  return sql`m.id, m.post_id, m.parent_id, m.user_id, u.username AS author_username, u.avatar_url AS author_avatar_url,
    m.content, m.status, m.created_at, m.updated_at,
    (SELECT count(*) FROM blog_comment_likes l WHERE l.comment_id = m.id) AS like_count,
    ${viewerId === null ? sql`0` : sql`(SELECT count(*) FROM blog_comment_likes l WHERE l.comment_id = m.id AND l.user_id = ${viewerId})`} AS liked`;
}

/** A post's approved comments, plus the viewer's own that wait for moderation; oldest first. */
export async function listPostComments(db: DB, postId: number, viewerId: number | null): Promise<BlogComment[]> {
  const own = viewerId === null ? sql`0 = 1` : sql`(m.user_id = ${viewerId} AND m.status = 'pending')`;
  const { rows } = await sql<CommentRow>`SELECT ${commentColumns(viewerId)}
    FROM blog_comments m JOIN users u ON u.id = m.user_id
    WHERE m.post_id = ${postId} AND (m.status = 'approved' OR ${own})
    ORDER BY m.created_at, m.id`.execute(db);
  return rows.map(toComment);
}

export async function findComment(db: DB, id: number, viewerId: number | null = null): Promise<BlogComment | undefined> {
  const { rows } =
    await sql<CommentRow>`SELECT ${commentColumns(viewerId)} FROM blog_comments m JOIN users u ON u.id = m.user_id WHERE m.id = ${id}`.execute(
      db,
    );
  return rows[0] && toComment(rows[0]);
}

export async function insertComment(
  db: DB,
  input: { postId: number; parentId: number | null; userId: number; content: string; status: BlogCommentStatus },
): Promise<number> {
  const row = await db
    .insertInto("blog_comments")
    .values({ post_id: input.postId, parent_id: input.parentId, user_id: input.userId, content: input.content, status: input.status })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateComment(db: DB, id: number, changes: { content?: string; status?: BlogCommentStatus }): Promise<void> {
  await db
    .updateTable("blog_comments")
    .set({ ...changes, updated_at: nowIso() })
    .where("id", "=", id)
    .execute();
}

export async function deleteComment(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("blog_comments").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** When the user last commented anywhere (the flood rule). */
export async function lastCommentAt(db: DB, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom("blog_comments")
    .select("created_at")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** The moderation queue: comments of a status (or all), newest first, with their post. */
export async function listCommentQueue(
  db: DB,
  options: { status: BlogCommentStatus | null; page: number; limit: number },
): Promise<{ items: QueuedComment[]; total: number }> {
  const where = options.status ? sql`m.status = ${options.status}` : sql`1 = 1`;
  const offset = (options.page - 1) * options.limit;
  const [{ rows }, count] = await Promise.all([
    sql<CommentRow & { post_title: string; post_slug: string }>`SELECT ${commentColumns(null)}, p.title AS post_title, p.slug AS post_slug
      FROM blog_comments m JOIN users u ON u.id = m.user_id JOIN blog_posts p ON p.id = m.post_id
      WHERE ${where} ORDER BY m.created_at DESC, m.id DESC LIMIT ${options.limit} OFFSET ${offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*) AS n FROM blog_comments m WHERE ${where}`.execute(db),
  ]);
  return {
    items: rows.map((row) => ({ ...toComment(row), postTitle: row.post_title, postSlug: row.post_slug })),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

/** Public posts and comments waiting for moderation, in one query (the dashboard). */
export async function dashboardCounts(db: DB, now = nowIso()): Promise<{ published: number; pendingComments: number }> {
  const { rows } = await sql<{ published: number; pending: number }>`SELECT
    (SELECT count(*) FROM blog_posts WHERE status = 'published' AND published_at <= ${now}) AS published,
    (SELECT count(*) FROM blog_comments WHERE status = 'pending') AS pending`.execute(db);
  return { published: Number(rows[0]?.published ?? 0), pendingComments: Number(rows[0]?.pending ?? 0) };
}

export function countCommentsByStatus(db: DB): Promise<Record<BlogCommentStatus, number>> {
  return countByStatus(db, "blog_comments", COMMENT_STATUSES);
}

// ---------------------------------------------------------------- likes

type LikeTarget = { table: "blog_post_likes"; column: "post_id" } | { table: "blog_comment_likes"; column: "comment_id" };
export const POST_LIKES: LikeTarget = { table: "blog_post_likes", column: "post_id" };
export const COMMENT_LIKES: LikeTarget = { table: "blog_comment_likes", column: "comment_id" };

/** Likes, or takes the like back when there is one (the caller runs it in a transaction). */
export async function toggleLike(
  db: DB,
  target: LikeTarget,
  id: number,
  userId: number,
  type: string,
): Promise<{ liked: boolean; likeCount: number }> {
  const { table, column } = target;
  // a double click: the second waits for the first's transaction, then takes its like back
  await serializeOn(db, `like:${table}:${id}:${userId}`);
  const removed = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${id} AND user_id = ${userId}`.execute(db);
  const liked = Number(removed.numAffectedRows ?? 0) === 0;
  if (liked) await sql`INSERT INTO ${sql.table(table)} (${sql.ref(column)}, user_id, type) VALUES (${id}, ${userId}, ${type})`.execute(db);
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${id}`.execute(db);
  return { liked, likeCount: Number(rows[0]?.n ?? 0) };
}

export async function hasLiked(db: DB, target: LikeTarget, id: number, userId: number): Promise<boolean> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM ${sql.table(target.table)} WHERE ${sql.ref(target.column)} = ${id} AND user_id = ${userId}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

// ---------------------------------------------------------------- settings

export async function getBlogSettingsRow(db: DB): Promise<BlogSettingsRow> {
  const row = await db.selectFrom("blog_settings").selectAll().where("id", "=", 1).executeTakeFirst();
  return {
    commentsEnabled: (row?.comments_enabled ?? 1) === 1,
    commentModeration: (row?.comment_moderation ?? 0) === 1,
    postsPerPage: row?.posts_per_page ?? 10,
    updatedAt: row?.updated_at ?? nowIso(),
  };
}

export async function saveBlogSettingsRow(db: DB, changes: Partial<Omit<BlogSettingsRow, "updatedAt">>): Promise<void> {
  await db
    .updateTable("blog_settings")
    .set({
      ...(changes.commentsEnabled !== undefined ? { comments_enabled: changes.commentsEnabled ? 1 : 0 } : {}),
      ...(changes.commentModeration !== undefined ? { comment_moderation: changes.commentModeration ? 1 : 0 } : {}),
      ...(changes.postsPerPage !== undefined ? { posts_per_page: changes.postsPerPage } : {}),
      updated_at: nowIso(),
    })
    .where("id", "=", 1)
    .execute();
}
