/**
 * Blog limits, statuses and messages (docs/product/admin.md 4, 5, 8, 9; docs/product/storefront.md 9):
 * zod-free, so pages can import them without shipping zod. Schemas live in blog.ts.
 */
import { COMMENT_LINKS_MAX, COMMENT_MAX } from "./blog-comment-limits";

/** The back office's blog screens (client-safe: pages link to them). */
export const BLOG_ADMIN_PATHS = {
  categories: "/admin/blog",
  posts: "/admin/blog/posts",
  comments: "/admin/blog/comments",
  settings: "/admin/blog/settings",
} as const;

export const POST_STATUSES = ["draft", "published", "scheduled", "archived", "private"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  draft: "Draft",
  published: "Published",
  scheduled: "Scheduled",
  archived: "Archived",
  private: "Private",
};

/**
 * What the editor offers (docs/product/admin.md 4): only draft, published and private. A post is
 * scheduled by saving it published with a later "Publish at" time (stored as scheduled);
 * a scheduled or archived post keeps its status when edited (the select then offers it too).
 */
export const EDITOR_STATUSES = ["draft", "published", "private"] as const satisfies readonly PostStatus[];

export const COMMENT_STATUSES = ["pending", "approved", "rejected", "spam"] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];
export const COMMENT_STATUS_LABELS: Record<CommentStatus, string> = {
  pending: "Awaiting moderation",
  approved: "Approved",
  rejected: "Rejected",
  spam: "Spam",
};

/** `{type}` of a like (docs/product/storefront.md 7: 'like' by default). */
export const LIKE_TYPES = ["like"] as const;
export type LikeType = (typeof LIKE_TYPES)[number];

/** docs/product/admin.md 9: the post list's page sizes. */
export const ADMIN_POST_PAGE_SIZES = [10, 20, 50] as const;
export const ADMIN_POST_PAGE_SIZE = 10;
/** The public list's page size unless the blog settings say otherwise. */
export const DEFAULT_POSTS_PER_PAGE = 10;
export const POSTS_PER_PAGE_MAX = 50;
export const BLOG_LIST_LIMIT_MAX = 50;
/** Featured and popular lists. */
export const BLOG_SIDE_LIST_SIZE = 5;
/** Posts in each feed. */
export const FEED_SIZE = 20;

export const TITLE_MAX = 200;
export const EXCERPT_MAX = 1000;
export const CONTENT_MAX = 500_000;
export const META_TITLE_MAX = 200;
export const META_DESCRIPTION_MAX = 500;
export const TAGS_MAX = 20;
export const TAG_NAME_MAX = 40;
// the comment form's limits live apart, so the blog post page does not carry every message here
export { COMMENT_LINKS_MAX, COMMENT_MAX };
/** spec (issue 11): a second comment by the same user within this many seconds is refused. */
export const COMMENT_FLOOD_SECONDS = 15;
/** Featured images, as the product images. */
export const BLOG_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const BLOG_MESSAGES = {
  // docs/product/admin.md 5 and 8
  titleContentRequired: "标题和内容为必填项",
  loadFailed: "加载数据失败",
  postLoadFailed: "加载文章失败",
  postDeleteFailed: "删除文章失败",
  publishFailed: "更新发布状态失败，请检查网络连接后重试",
  saveFailed: "保存失败",
  categoryLoadFailed: "加载分类失败",
  categoryCreateFailed: "创建分类失败",
  categoryUpdateFailed: "更新分类失败",
  categoryDeleteFailed: "删除分类失败",
  // where the spec shows no text
  postNotFound: "Post not found",
  categoryNotFound: "Category not found",
  tagNotFound: "Tag not found",
  commentNotFound: "Comment not found",
  categoryNameRequired: "Category name is required",
  categoryOwnParent: "A category cannot be its own parent",
  categoryUnderDescendant: "A category cannot be placed under one of its own subcategories",
  slugInvalid: "The slug may hold only letters, digits, Chinese characters and hyphens",
  statusInvalid: "Unknown status",
  scheduleNeedsTime: "Choose when the scheduled post goes live",
  dateInvalid: "Not a valid date and time",
  imageInvalid: "The image must be a file uploaded here or an https address",
  imageNotImage: "The file is not a JPG, PNG, WEBP or GIF image",
  imageTooLarge: "The image is larger than 10 MB",
  commentRequired: "Please write a comment",
  commentTooLong: `A comment holds at most ${COMMENT_MAX} characters`,
  commentEmpty: "The comment has no text left after removing what is not allowed",
  commentsClosed: "Comments are closed",
  commentFlood: (seconds: number) => `You are commenting too fast: please wait ${seconds} s before your next comment`,
  commentPosted: "Comment posted",
  commentAwaitingModeration: "Thanks! Your comment is awaiting moderation",
  commentParentInvalid: "You can only reply to a published comment of this post",
  commentNotYours: "You can only change your own comments",
  commentDeleted: "Comment deleted",
  commentModerated: (label: string) => `Comment marked: ${label}`,
  likeTypeInvalid: "Unknown like type",
  searchTermRequired: "Enter a search term",
  postCreated: (title: string) => `Post created: ${title}`,
  postUpdated: (title: string) => `Post saved: ${title}`,
  postPublished: (title: string) => `Published: ${title}`,
  postUnpublished: (title: string) => `Back to draft: ${title}`,
  postDeleted: (title: string) => `Post deleted: ${title}`,
  categoryCreated: (name: string) => `Category created: ${name}`,
  categoryUpdated: (name: string) => `Category saved: ${name}`,
  categoryDeleted: (name: string) => `Category deleted: ${name}`,
  settingsSaved: "Blog settings saved",
} as const;
