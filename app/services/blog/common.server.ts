/**
 * The blog's shared rules (docs/decisions/017-blog.md): who sees which posts, and the JSON of
 * posts, categories, tags and comments that pages and /api share.
 */
import { ApiError } from "~/lib/api.server";
import { summarize } from "~/lib/blog-text";
import type { Access } from "~/lib/permissions";
import {
  type BlogCategory,
  type BlogComment,
  type BlogPost,
  type BlogTag,
  type BlogTagWithCount,
  type PostNeighbour,
  type QueuedComment,
} from "~/models/blog.server";
import { BLOG_MESSAGES as M } from "~/schemas/blog";
import type { Actor } from "../permissions.server";

export type { BlogCategory, BlogComment, BlogPost, BlogTag, BlogTagWithCount, PostNeighbour, QueuedComment };

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

export const postNotFound = () => new ApiError(404, M.postNotFound, "NOT_FOUND");
export const fieldError = (status: number, field: string, message: string) =>
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

export const has = (actor: Actor, permission: string) => actor.access.allPermissions.includes(permission);
