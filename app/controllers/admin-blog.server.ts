/**
 * The loaders and actions of the blog's back office (docs/product/admin.md 2, 4, 5, 8, 9):
 * the category tree (/admin/blog, also /admin/blog/categories), the post list, the
 * comment queue and the blog settings. The post editor is admin-blog-post-form.server.ts.
 * Every loader and action checks the caller; dialogs are chosen by the URL (decision 007).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { ApiError, notFound, nullIfNotFound, isServiceError } from "~/lib/api.server";
import { BLOG_PERMISSIONS } from "~/controllers/blog-api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { listAddress, listReturnTo } from "~/lib/list-address";
import { can } from "~/lib/permissions";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { commentStatusLabel } from "~/i18n/status-labels";

/** The reader's translator, and a service's message in the reader's language (the /api keeps the words). */
function readerOf(request: Request) {
  const language = readLanguage(request);
  return { t: translatorFor(language), say: (text: string) => translateMessage(language, text) };
}
import {
  adminPostListQuerySchema,
  blogCategoryInputSchema,
  blogSettingsSchema,
  BLOG_ADMIN_PATHS,
  BLOG_MESSAGES as M,
  commentQueueQuerySchema,
  moderateSchema,
} from "~/schemas/blog";
import { isPublic, postPath, type BlogCategory } from "~/services/blog/common.server";
import { loadBlogSettings, saveBlogSettings } from "~/services/blog/settings.server";
import { adminPostList, deletePostByAdmin, getPost, togglePublished } from "~/services/blog/posts.server";
import {
  categoryTree,
  createBlogCategory,
  deleteBlogCategoryByAdmin,
  descendantIds,
  flattenTree,
  listCategoriesFor,
  updateBlogCategoryByAdmin,
} from "~/services/blog/categories.server";
import { commentQueue, moderateComment, removeComment } from "~/services/blog/comments.server";
import { idOf } from "~/lib/ids";

export const requireBlogStaff = (request: Request) => requireAdmin(request, { anyOf: BLOG_PERMISSIONS });

// ---------------------------------------------------------------- categories

const CATEGORY_DIALOG_PARAMS = ["modal", "categoryId"];

export type CategoryRow = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  parentId: number | null;
  depth: number;
  displayOrder: number;
  isVisible: boolean;
  postCount: number;
  allPostCount: number;
};

const toRow = (node: BlogCategory & { depth: number }): CategoryRow => ({
  id: node.id,
  name: node.name,
  slug: node.slug,
  description: node.description,
  parentId: node.parentId,
  depth: node.depth,
  displayOrder: node.displayOrder,
  isVisible: node.isVisible,
  postCount: node.postCount,
  allPostCount: node.allPostCount,
});

export async function blogCategoriesLoader(request: Request, path: string) {
  const { access } = await requireBlogStaff(request);
  const url = new URL(request.url);
  const all = await listCategoriesFor(access);
  const rows = flattenTree(categoryTree(all)).map(toRow);
  const manage = can(access, "blog.manage_categories");
  const modal = url.searchParams.get("modal");
  const target = rows.find((row) => row.id === Number(url.searchParams.get("categoryId"))) ?? null;
  let dialog:
    | { kind: "create" }
    | { kind: "edit"; category: CategoryRow; excluded: number[] }
    | { kind: "delete"; category: CategoryRow; childCount: number }
    | { kind: "missing" }
    | null = null;
  if (manage && modal === "create") dialog = { kind: "create" };
  else if (manage && (modal === "edit" || modal === "delete")) {
    if (!target) dialog = { kind: "missing" };
    else if (modal === "edit") dialog = { kind: "edit", category: target, excluded: descendantIds(all, target.id, true) };
    else dialog = { kind: "delete", category: target, childCount: rows.filter((row) => row.parentId === target.id).length };
  }
  return { path, rows, manage, dialog };
}

export const blogCategoriesAction = (request: Request, path: string) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = formData.get("intent");
      const back = listAddress(path, new URL(request.url).searchParams, CATEGORY_DIALOG_PARAMS);
      const { t, say } = readerOf(request);

      if (intent === "create" || intent === "update") {
        // an unticked box sends nothing: visible only when ticked
        formData.set("is_visible", formData.get("is_visible") === "on" ? "true" : "false");
        const submission = parseWithZod(formData, { schema: blogCategoryInputSchema });
        if (submission.status !== "success") return { intent, result: submission.reply() };
        try {
          if (intent === "create") {
            const category = await createBlogCategory(submission.value, actor);
            return redirectWithToast(back, { message: t("admin.blog.categoryCreated", { name: category.name }) });
          }
          const id = idOf(formData.get("categoryId"));
          if (id === null) throw notFound(M.categoryNotFound);
          const category = await updateBlogCategoryByAdmin(
            id,
            {
              ...submission.value,
              slug: submission.value.slug ?? null,
              description: submission.value.description ?? null,
              parent_id: submission.value.parent_id ?? null,
              display_order: submission.value.display_order ?? 0,
            },
            actor,
          );
          return redirectWithToast(back, { message: t("admin.blog.categoryUpdated", { name: category.name }) });
        } catch (error) {
          if (isServiceError(error)) {
            const prefix = intent === "create" ? M.categoryCreateFailed : M.categoryUpdateFailed;
            return {
              intent,
              result: replyWithApiError(
                submission,
                new ApiError(error.status, `${say(prefix)}: ${say(error.message)}`, error.code, error.errors),
              ),
            };
          }
          throw error;
        }
      }

      if (intent === "delete") {
        const id = idOf(formData.get("categoryId"));
        try {
          if (id === null) throw notFound(M.categoryNotFound);
          const category = await deleteBlogCategoryByAdmin(id, actor);
          return redirectWithToast(back, { message: t("admin.blog.categoryDeleted", { name: category.name }) });
        } catch (error) {
          if (isServiceError(error)) return { intent, error: `${say(M.categoryDeleteFailed)}: ${say(error.message)}` };
          throw error;
        }
      }

      throw new Response("Unknown action", { status: 400 });
    },
    { anyOf: BLOG_PERMISSIONS },
  );

// ---------------------------------------------------------------- posts

const POST_LIST_PATH = BLOG_ADMIN_PATHS.posts;
const POST_DIALOG_PARAMS = ["modal", "postId"];

export async function blogPostListLoader(request: Request) {
  const { access } = await requireBlogStaff(request);
  const url = new URL(request.url);
  const query = adminPostListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [list, categories] = await Promise.all([adminPostList(query), listCategoriesFor(access)]);
  const allowed = {
    create: can(access, "blog.create"),
    edit: can(access, "blog.edit"),
    delete: can(access, "blog.delete"),
    publish: can(access, "blog.edit") || can(access, "blog.publish"),
  };
  const posts = list.posts.map((post) => ({
    id: post.id,
    title: post.title,
    slug: post.slug,
    path: postPath(post),
    status: post.status,
    live: isPublic(post),
    isFeatured: post.isFeatured,
    isPinned: post.isPinned,
    category: post.categoryName,
    author: post.authorUsername,
    publishedAt: post.publishedAt,
    updatedAt: post.updatedAt,
    views: post.viewCount,
    comments: post.commentCount,
    likes: post.likeCount,
  }));
  let confirmDelete: { id: number; title: string } | null = null;
  if (allowed.delete && url.searchParams.get("modal") === "delete") {
    const id = idOf(url.searchParams.get("postId"));
    const post = id !== null ? await nullIfNotFound(getPost({ id }, access)) : null;
    confirmDelete = post ? { id: post.id, title: post.title } : null;
  }
  return {
    query,
    allowed,
    posts,
    page: list.page,
    totalPages: list.totalPages,
    totalPosts: list.totalPosts,
    statusCounts: list.statusCounts,
    categories: flattenTree(categoryTree(categories)).map((node) => ({ slug: node.slug, name: node.name, depth: node.depth })),
    confirmDelete,
  };
}

export const blogPostListAction = (request: Request) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = formData.get("intent");
      const back = listReturnTo(formData.get("returnTo"), POST_LIST_PATH, POST_DIALOG_PARAMS, request);
      const { t, say } = readerOf(request);
      const id = idOf(formData.get("postId"));

      if (intent === "toggle") {
        try {
          if (id === null) throw notFound(M.postNotFound);
          const post = await togglePublished(id, actor);
          return redirectWithToast(back, {
            message:
              post.status === "published"
                ? t("admin.blog.postPublished", { title: post.title })
                : t("admin.blog.postUnpublished", { title: post.title }),
          });
        } catch (error) {
          if (isServiceError(error))
            return redirectWithToast(back, { type: "error", message: `${say(M.publishFailed)} (${say(error.message)})` });
          throw error;
        }
      }

      if (intent === "delete") {
        try {
          if (id === null) throw notFound(M.postNotFound);
          const post = await deletePostByAdmin(id, actor);
          return redirectWithToast(back, { message: t("admin.blog.postDeleted", { title: post.title }) });
        } catch (error) {
          if (isServiceError(error))
            return redirectWithToast(back, { type: "error", message: `${say(M.postDeleteFailed)}: ${say(error.message)}` });
          throw error;
        }
      }

      throw new Response("Unknown action", { status: 400 });
    },
    { anyOf: BLOG_PERMISSIONS },
  );

// ---------------------------------------------------------------- comments

const COMMENTS_PATH = BLOG_ADMIN_PATHS.comments;

export async function commentQueueLoader(request: Request) {
  await requireAdmin(request, { permission: "blog.edit" });
  const url = new URL(request.url);
  const query = commentQueueQuerySchema.parse(Object.fromEntries(url.searchParams));
  const queue = await commentQueue(query);
  const deleteId = url.searchParams.get("modal") === "delete" ? Number(url.searchParams.get("commentId")) : null;
  return {
    status: query.status,
    counts: queue.counts,
    page: queue.page,
    totalPages: queue.totalPages,
    total: queue.total,
    comments: queue.comments.map((comment) => ({
      id: comment.id,
      author: comment.authorUsername,
      html: comment.content,
      status: comment.status,
      createdAt: comment.createdAt,
      likes: comment.likeCount,
      isReply: comment.parentId !== null,
      post: { title: comment.postTitle, path: `/blog/${encodeURIComponent(comment.postSlug)}` },
    })),
    confirmDelete: deleteId && queue.comments.some((comment) => comment.id === deleteId) ? deleteId : null,
  };
}

export const commentQueueAction = (request: Request) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = formData.get("intent");
      const back = listReturnTo(formData.get("returnTo"), COMMENTS_PATH, ["modal", "commentId"], request);
      const { t, say } = readerOf(request);
      const id = idOf(formData.get("commentId"));
      try {
        if (id === null) throw notFound(M.commentNotFound);
        if (intent === "moderate") {
          const parsed = moderateSchema.safeParse({ status: formData.get("status") });
          if (!parsed.success) throw new ApiError(400, M.statusInvalid, "VALIDATION_ERROR");
          await moderateComment(id, parsed.data.status, actor);
          return redirectWithToast(back, {
            message: t("admin.blog.commentModerated", { status: commentStatusLabel(t, parsed.data.status) }),
          });
        }
        if (intent === "delete") {
          await removeComment(id, actor);
          return redirectWithToast(back, { message: say(M.commentDeleted) });
        }
      } catch (error) {
        if (isServiceError(error)) return redirectWithToast(back, { type: "error", message: say(error.message) });
        throw error;
      }
      throw new Response("Unknown action", { status: 400 });
    },
    { permission: "blog.edit" },
  );

// ---------------------------------------------------------------- settings

const SETTINGS_PATH = BLOG_ADMIN_PATHS.settings;

export async function blogSettingsLoader(request: Request) {
  await requireAdmin(request, { permission: "blog.edit" });
  return { settings: await loadBlogSettings() };
}

export const blogSettingsAction = (request: Request) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const parsed = blogSettingsSchema.safeParse({
        // a ticked box sends "on"; an unticked one nothing
        comments_enabled: formData.get("comments_enabled") === "on",
        comment_moderation: formData.get("comment_moderation") === "on",
        posts_per_page: formData.get("posts_per_page"),
      });
      if (!parsed.success) {
        return {
          errors: Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? "form"), issue.message])) as Record<
            string,
            string
          >,
        };
      }
      await saveBlogSettings(parsed.data, actor);
      return redirectWithToast(SETTINGS_PATH, { message: translateMessage(readLanguage(request), M.settingsSaved) });
    },
    { permission: "blog.edit" },
  );
