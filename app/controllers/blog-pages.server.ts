/**
 * What the public blog pages share on the server: cards, the sidebar, and the post
 * page's loader and action (like, comment, reply, delete a comment: every one a plain
 * form that works without JavaScript).
 */
import { redirect } from "@remix-run/node";
import type { PostCardData, PostListData } from "~/components/storefront/blog-cards";
import type { BlogPostPageData, CommentActionData, CommentView } from "~/components/storefront/blog-post";
import type { BlogSidebarData } from "~/components/storefront/blog-sidebar";
import { ApiError } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import { provideHtml } from "~/lib/html-slot.server";
import { getAccess, requireUser } from "~/services/permissions.server";
import { orNotFound } from "~/controllers/product-page.server";
import { redirectWithToast } from "~/lib/toast.server";
import { BLOG_MESSAGES as M, commentInputSchema } from "~/schemas/blog";
import { authorName, isPublic, postPath, postSummary, type BlogComment, type BlogPost } from "~/services/blog/common.server";
import { loadBlogSettings } from "~/services/blog/settings.server";
import { getPost, countPostView, popularPosts, postNavigation, type PostList } from "~/services/blog/posts.server";
import { categoryTree, flattenTree, listCategoriesFor, listTagsWithCounts } from "~/services/blog/categories.server";
import { addComment, likeComment, likePost, listComments, removeComment, viewerLikesPost } from "~/services/blog/comments.server";

export const POST_BODY_SLOT = "post-body";

export const categoryPath = (slug: string) => `/blog/category/${encodeURIComponent(slug)}`;
export const tagPath = (slug: string) => `/blog/tag/${encodeURIComponent(slug)}`;

export function toPostCard(post: BlogPost): PostCardData {
  return {
    id: post.id,
    title: post.title,
    href: postPath(post),
    summary: postSummary(post, 180),
    image: post.featuredImage,
    category:
      post.categoryName && post.categorySlug && post.categoryVisible
        ? { name: post.categoryName, href: categoryPath(post.categorySlug) }
        : null,
    publishedAt: post.publishedAt,
    readingTime: post.readingTime,
    author: authorName(post),
    pinned: post.isPinned,
  };
}

export function toPostListData(list: PostList): PostListData {
  return { posts: list.posts.map(toPostCard), page: list.page, totalPages: list.totalPages, totalPosts: list.totalPosts };
}

/** ?page= of a public list (a positive whole number, else 1). */
export function pageParam(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page") ?? "";
  return /^\d{1,6}$/.test(raw) && Number(raw) > 0 ? Number(raw) : 1;
}

/** The sidebar of every blog page: categories (a tree), tags in use, the most read posts. */
export async function blogSidebar(): Promise<BlogSidebarData> {
  const [categories, tags, popular] = await Promise.all([listCategoriesFor(null), listTagsWithCounts(), popularPosts()]);
  return {
    categories: flattenTree(categoryTree(categories)).map((node) => ({
      name: node.name,
      href: categoryPath(node.slug),
      depth: node.depth,
      postCount: node.postCount,
    })),
    tags: tags
      .filter((tag) => tag.postCount > 0)
      .slice(0, 24)
      .map((tag) => ({ name: tag.name, href: tagPath(tag.slug), postCount: tag.postCount })),
    popular: popular.map((post) => ({ title: post.title, href: postPath(post) })),
  };
}

// ---------------------------------------------------------------- the post page

type Viewer = { user: NonNullable<Awaited<ReturnType<typeof getPageUser>>>; access: Awaited<ReturnType<typeof getAccess>> } | null;

async function pageViewer(request: Request): Promise<Viewer> {
  const user = await getPageUser(request);
  return user ? { user, access: await getAccess(user) } : null;
}

function threaded(comments: BlogComment[], viewerId: number | null): CommentView[] {
  const view = (comment: BlogComment): CommentView => ({
    id: comment.id,
    author: comment.authorUsername,
    avatarUrl: comment.authorAvatarUrl,
    html: comment.content,
    createdAt: comment.createdAt,
    pending: comment.status === "pending",
    likeCount: comment.likeCount,
    liked: comment.liked,
    own: viewerId !== null && comment.userId === viewerId,
    replies: [],
  });
  const top = comments.filter((comment) => comment.parentId === null).map(view);
  const byId = new Map(top.map((comment) => [comment.id, comment]));
  for (const reply of comments.filter((comment) => comment.parentId !== null)) byId.get(reply.parentId!)?.replies.push(view(reply));
  return top;
}

/**
 * The post page's data. The body is handed to the render (provideHtml) and kept out of
 * the data, so it is sent once. A view is counted (not for crawlers, once per reader).
 */
export async function loadPostPage(request: Request, clientIp: string, slug: string): Promise<BlogPostPageData> {
  const viewer = await pageViewer(request);
  const post = await orNotFound(getPost({ slug }, viewer?.access));
  const url = new URL(request.url);
  if (isPublic(post)) await countPostView(post.id, { request, clientIp, userId: viewer?.user.id ?? null });
  const [neighbours, comments, settings, liked] = await Promise.all([
    postNavigation(post.id, viewer?.access),
    listComments(post.id, viewer),
    loadBlogSettings(),
    viewer ? viewerLikesPost(post.id, viewer.user.id) : Promise.resolve(false),
  ]);
  provideHtml(POST_BODY_SLOT, post.content);
  const thread = threaded(comments, viewer?.user.id ?? null);
  const replyId = Number(url.searchParams.get("replyTo"));
  const replyTo = thread.find((comment) => comment.id === replyId) ?? null;
  const deleteId = Number(url.searchParams.get("deleteComment"));
  const deleting = viewer
    ? (thread.flatMap((comment) => [comment, ...comment.replies]).find((comment) => comment.id === deleteId && comment.own) ?? null)
    : null;
  return {
    post: {
      id: post.id,
      title: post.title,
      slug: post.slug,
      path: postPath(post),
      status: post.status,
      isPublic: isPublic(post),
      description: post.metaDescription?.trim() || postSummary(post, 160),
      metaTitle: post.metaTitle,
      category:
        post.categoryName && post.categorySlug && post.categoryVisible
          ? { name: post.categoryName, href: categoryPath(post.categorySlug) }
          : null,
      tags: post.tags.map((tag) => ({ name: tag.name, href: tagPath(tag.slug) })),
      author: authorName(post),
      publishedAt: post.publishedAt,
      updatedAt: post.updatedAt,
      readingTime: post.readingTime,
      featuredImage: post.featuredImage,
      likeCount: post.likeCount,
      liked,
      commentCount: post.commentCount,
    },
    neighbours: {
      previous: neighbours.previous ? { title: neighbours.previous.title, href: postPath(neighbours.previous) } : null,
      next: neighbours.next ? { title: neighbours.next.title, href: postPath(neighbours.next) } : null,
    },
    comments: thread,
    commentsEnabled: settings.commentsEnabled,
    moderation: settings.commentModeration,
    viewer: viewer ? { username: viewer.user.username } : null,
    replyTo: replyTo ? { id: replyTo.id, author: replyTo.author } : null,
    deleteComment: deleting ? { id: deleting.id } : null,
  };
}

/** A service failure as a message for the page (a flash after the redirect), else rethrown. */
function failure(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  throw error;
}

/** The post page's forms: like, like a comment, comment (or reply), delete one's own comment. */
export async function postPageAction(request: Request, slug: string) {
  // visitors are sent to log in and come back here
  const actor = await requireUser(request);
  const post = await orNotFound(getPost({ slug }, actor.access));
  const path = postPath(post);
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "like") {
    try {
      await likePost(post.id, actor, "like");
    } catch (error) {
      return redirectWithToast(path, { type: "error", message: failure(error) });
    }
    return redirect(`${path}#likes`);
  }

  if (intent === "like-comment") {
    const commentId = Number(formData.get("commentId"));
    try {
      if (!Number.isSafeInteger(commentId) || commentId <= 0) throw new ApiError(404, M.commentNotFound);
      await likeComment(commentId, actor, "like");
    } catch (error) {
      return redirectWithToast(`${path}#comments`, { type: "error", message: failure(error) });
    }
    return redirect(`${path}#comment-${commentId}`);
  }

  if (intent === "delete-comment") {
    const commentId = Number(formData.get("commentId"));
    try {
      if (!Number.isSafeInteger(commentId) || commentId <= 0) throw new ApiError(404, M.commentNotFound);
      await removeComment(commentId, actor);
    } catch (error) {
      return redirectWithToast(`${path}#comments`, { type: "error", message: failure(error) });
    }
    return redirectWithToast(`${path}#comments`, { message: M.commentDeleted });
  }

  if (intent === "comment") {
    // the form comes back with what was typed and the reason (no conform on this page: its script stays small)
    const typed = String(formData.get("content") ?? "");
    const parsed = commentInputSchema.safeParse({ content: typed, parent_id: formData.get("parent_id") ?? undefined });
    if (!parsed.success)
      return { commentError: parsed.error.issues[0]?.message ?? M.commentRequired, content: typed } satisfies CommentActionData;
    try {
      const comment = await addComment(post.id, parsed.data, actor);
      return redirectWithToast(`${path}#comment-${comment.id}`, {
        message: comment.status === "pending" ? M.commentAwaitingModeration : M.commentPosted,
      });
    } catch (error) {
      return { commentError: failure(error), content: typed } satisfies CommentActionData;
    }
  }

  throw new Response("Unknown action", { status: 400 });
}
