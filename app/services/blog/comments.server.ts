/**
 * Comments (moderated when the settings say so) and likes of posts and comments.
 */
import { ApiError } from "~/lib/api.server";
import { htmlToText } from "~/lib/blog-text";
import { getDb, type DB } from "~/lib/db.server";
import { limitLikes } from "../rate-limit.server";
import { countLinks, sanitizeCommentHtml } from "~/lib/html-sanitize.server";
import {
  COMMENT_LIKES,
  countCommentsByStatus,
  deleteComment,
  findComment,
  hasLiked,
  insertComment,
  lastCommentAt,
  listCommentQueue,
  listPostComments,
  POST_LIKES,
  toggleLike,
  updateComment,
  type BlogComment,
} from "~/models/blog.server";
import {
  BLOG_MESSAGES as M,
  COMMENT_FLOOD_SECONDS,
  COMMENT_LINKS_MAX,
  type CommentBody,
  type CommentStatus,
  type LikeType,
} from "~/schemas/blog";
import type { Actor } from "../permissions.server";
import { contentWrite, staffWrite } from "../writes.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
import { fieldError, has } from "./common.server";
import { getPost } from "./posts.server";
import { loadBlogSettings } from "./settings.server";

const db = (): DB => getDb();

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

export const addComment = contentWrite({ stales: ["blog"] }, addCommentWrite);

export const editComment = contentWrite({ stales: ["blog"] }, editCommentWrite);

export const removeComment = contentWrite({ stales: ["blog"] }, removeCommentWrite);

export const moderateComment = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, moderateCommentWrite);

export const likePost = contentWrite({ stales: ["blog"] }, likePostWrite);

export const likeComment = contentWrite({ stales: ["blog"] }, likeCommentWrite);
