/**
 * Blog inputs: one zod schema per input, shared by the pages' actions and /api. Limits
 * and messages are in blog-rules.ts (zod-free, for the pages).
 */
import { z } from "zod";
import { isAllowedImageSrc } from "~/lib/blog-text";
import { plainLine } from "~/lib/text";
import {
  ADMIN_POST_PAGE_SIZE,
  ADMIN_POST_PAGE_SIZES,
  BLOG_LIST_LIMIT_MAX,
  BLOG_MESSAGES as M,
  COMMENT_MAX,
  COMMENT_STATUSES,
  CONTENT_MAX,
  EXCERPT_MAX,
  LIKE_TYPES,
  META_DESCRIPTION_MAX,
  META_TITLE_MAX,
  POST_STATUSES,
  POSTS_PER_PAGE_MAX,
  TAG_NAME_MAX,
  TAGS_MAX,
  TITLE_MAX,
} from "./blog-rules";
import { booleanish } from "./catalogue";

export * from "./blog-rules";

const blankToNull = (value: unknown) =>
  value === "" || value === undefined ? null : typeof value === "string" && value.trim() === "" ? null : value;
const optionalText = (max: number, message = `At most ${max} characters`) =>
  z.preprocess(blankToNull, z.string().trim().max(max, message).nullable()).optional();
const optionalId = (message: string) =>
  z
    .preprocess(blankToNull, z.coerce.number(message).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message).nullable())
    .optional();

/** A slug typed by hand (cleaned by the service): letters, digits, Chinese, hyphens, spaces. */
const slugInput = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(120, M.slugInvalid)
    .regex(/^[\p{L}\p{N}\s_-]+$/u, M.slugInvalid)
    .nullable(),
);

/**
 * A date and time: ISO 8601 with a zone, or without one (what a datetime-local field
 * sends), then read as UTC. Answers the ISO string.
 */
export const dateTimeInput = z.preprocess(
  blankToNull,
  z
    .string(M.dateInvalid)
    .trim()
    .refine((value) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value), M.dateInvalid)
    .transform((value, ctx) => {
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) || value.length === 10 ? value : `${value.replace(" ", "T")}Z`;
      const date = new Date(zoned);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: M.dateInvalid });
        return z.NEVER;
      }
      return date.toISOString();
    })
    .nullable(),
);

/**
 * Tags: a list of names, or one comma-separated text (the form's field); trimmed,
 * duplicates dropped. A list may also hold tags as a post's JSON answers them
 * (`{id, name, slug}`: the name counts), so a full update can send back the post it read.
 */
export const tagList = z
  .union([z.array(z.union([z.string(), z.object({ name: z.string() }).transform((tag) => tag.name)])), z.string()])
  .transform((value) => {
    // a comma always separates tags (a form's field may come as a one-item list)
    const names = (Array.isArray(value) ? value : [value])
      .flatMap((item) => item.split(/[,，]/))
      .map((name) => name.trim().replace(/\s+/g, " "))
      .filter(Boolean);
    const seen = new Set<string>();
    return names.filter((name) => {
      const key = name.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .pipe(z.array(z.string().max(TAG_NAME_MAX, `A tag holds at most ${TAG_NAME_MAX} characters`)).max(TAGS_MAX, `At most ${TAGS_MAX} tags`));

const imageAddress = z.preprocess(
  blankToNull,
  z.string().trim().max(2000, M.imageInvalid).refine(isAllowedImageSrc, M.imageInvalid).nullable(),
);

const required = (max: number) =>
  z.string(M.titleContentRequired).trim().min(1, M.titleContentRequired).max(max, `At most ${max} characters`);

const postFields = {
  title: required(TITLE_MAX),
  slug: slugInput.optional(),
  excerpt: optionalText(EXCERPT_MAX),
  content: z
    .string(M.titleContentRequired)
    .max(CONTENT_MAX, `At most ${CONTENT_MAX} characters`)
    .refine((value) => value.trim().length > 0, M.titleContentRequired),
  category_id: optionalId(M.categoryNotFound),
  status: z.enum(POST_STATUSES, M.statusInvalid).optional(),
  is_featured: booleanish.optional(),
  is_pinned: booleanish.optional(),
  reading_time: z
    .preprocess(
      blankToNull,
      z.coerce
        .number("reading_time must be a whole number of minutes")
        .int("reading_time must be a whole number of minutes")
        .min(1)
        .max(10_000)
        .nullable(),
    )
    .optional(),
  featured_image: imageAddress.optional(),
  meta_title: optionalText(META_TITLE_MAX),
  meta_description: optionalText(META_DESCRIPTION_MAX),
  published_at: dateTimeInput.optional(),
  tags: tagList.optional(),
};

/** POST /api/blog/posts and the new-post page: title and content are required ('标题和内容为必填项'). */
export const postInputSchema = z.object(postFields);
export type PostBody = z.infer<typeof postInputSchema>;

/** PUT /api/blog/posts/:id: every field optional; title and content, when given, not empty. */
export const postUpdateSchema = z.object(postFields).partial();
export type PostUpdateBody = z.infer<typeof postUpdateSchema>;

/** PUT /api/blog/posts/:id/publish: `published` unless another status is given. */
export const publishSchema = z.object({
  status: z.enum(POST_STATUSES, M.statusInvalid).optional().default("published"),
  published_at: dateTimeInput.optional(),
});

export const blogCategoryInputSchema = z.object({
  name: z.string(M.categoryNameRequired).trim().min(1, M.categoryNameRequired).max(100, "At most 100 characters"),
  slug: slugInput.optional(),
  description: optionalText(1000),
  parent_id: optionalId(M.categoryNotFound),
  display_order: z
    .preprocess(
      blankToNull,
      z.coerce
        .number("display_order must be a whole number")
        .int("display_order must be a whole number")
        .min(-1_000_000)
        .max(1_000_000)
        .nullable(),
    )
    .optional()
    .transform((value) => value ?? undefined),
  is_visible: booleanish.optional(),
});
export type BlogCategoryBody = z.infer<typeof blogCategoryInputSchema>;
export const blogCategoryUpdateSchema = blogCategoryInputSchema.partial();

export const commentInputSchema = z.object({
  content: z
    .string(M.commentRequired)
    .max(COMMENT_MAX, M.commentTooLong)
    .refine((value) => value.trim().length > 0, M.commentRequired),
  parent_id: optionalId(M.commentParentInvalid),
});
export type CommentBody = z.infer<typeof commentInputSchema>;

export const commentUpdateSchema = commentInputSchema.pick({ content: true });

export const moderateSchema = z.object({ status: z.enum(COMMENT_STATUSES, M.statusInvalid) });

export const likeSchema = z.object({ type: z.enum(LIKE_TYPES, M.likeTypeInvalid).optional().default("like") });

export const blogSettingsSchema = z.object({
  comments_enabled: booleanish.optional(),
  comment_moderation: booleanish.optional(),
  posts_per_page: z.coerce
    .number("posts_per_page must be a whole number")
    .int("posts_per_page must be a whole number")
    .min(1, "At least 1")
    .max(POSTS_PER_PAGE_MAX, `At most ${POSTS_PER_PAGE_MAX}`)
    .optional(),
});
export type BlogSettingsBody = z.infer<typeof blogSettingsSchema>;

const pageParam = z.coerce
  .number()
  .int()
  .catch(1)
  .transform((v) => Math.max(1, v))
  .default(1);
const limitParam = z
  .preprocess(blankToNull, z.coerce.number().int().catch(0).nullable())
  .transform((v) => (v ? Math.min(Math.max(1, v), BLOG_LIST_LIMIT_MAX) : null));

/** GET /api/blog/posts (and by category or tag): page and limit (the settings' page size when absent). */
export const postListQuerySchema = z.object({ page: pageParam, limit: limitParam });

/** GET /api/blog/posts/search?q=: a term is required. */
export const postSearchQuerySchema = postListQuerySchema.extend({
  // control characters are spaces (the search cleans the term: blogSearchTerm), so a term of nothing else is no term
  q: z.preprocess(
    (value) => (typeof value === "string" ? plainLine(value) : value),
    z.string(M.searchTermRequired).trim().min(1, M.searchTermRequired).max(200, "The search term is too long"),
  ),
});

/** GET /api/blog/admin/posts and /admin/blog/posts: search, category slug, status, page, page size. */
export const adminPostListQuerySchema = z.object({
  // control characters (a %00) are spaces, as in the public search: the box shows what is searched
  search: z
    .string()
    .transform((value) => plainLine(value).replace(/\s+/g, " ").trim())
    .pipe(z.string().max(200))
    .catch("")
    .default(""),
  category: z.string().trim().max(120).catch("").default(""),
  status: z
    .enum([...POST_STATUSES, "all"])
    .catch("all")
    .default("all"),
  page: pageParam,
  limit: z.coerce
    .number()
    .int()
    .refine((value) => (ADMIN_POST_PAGE_SIZES as readonly number[]).includes(value))
    .catch(ADMIN_POST_PAGE_SIZE)
    .default(ADMIN_POST_PAGE_SIZE),
});
export type AdminPostListQuery = z.infer<typeof adminPostListQuerySchema>;

/** The API's admin list also takes any limit up to the maximum. */
export const apiAdminPostListQuerySchema = adminPostListQuerySchema.extend({
  limit: z.coerce
    .number()
    .int()
    .catch(ADMIN_POST_PAGE_SIZE)
    .transform((v) => Math.min(Math.max(1, v), BLOG_LIST_LIMIT_MAX))
    .default(ADMIN_POST_PAGE_SIZE),
});

/** The moderation queue: a status (pending by default), page. */
export const commentQueueQuerySchema = z.object({
  status: z
    .enum([...COMMENT_STATUSES, "all"])
    .catch("pending")
    .default("pending"),
  page: pageParam,
  limit: z.coerce
    .number()
    .int()
    .catch(20)
    .transform((v) => Math.min(Math.max(1, v), BLOG_LIST_LIMIT_MAX))
    .default(20),
});
