/**
 * The post editor's loader and action (/admin/blog/posts/new and /:id/edit; docs/product/admin.md
 * 2, 4, 5). One multipart form that works without JavaScript (the rich-text editor only
 * enhances its textarea): "Save draft" sets draft, "Publish now" publishes, the form's own
 * submit keeps the chosen status; a chosen featured image is stored through the uploads
 * service; '标题和内容为必填项' when the title or the content is missing, once beside each
 * field it concerns (not again as the form's error). The page's notices are in the reader's
 * language; the /api keeps the schema's words.
 */
import { toZonedInput } from "~/lib/time-zones";
import { readZonedTimes, requestTimeZone } from "~/services/site-settings.server";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ApiError, orPageNotFound, isServiceError } from "~/lib/api.server";
import { readingTime } from "~/lib/blog-text";
import { BLOG_FORM_FIELD_BYTES, BLOG_FORM_FILE_STREAM_BYTES, MB } from "~/lib/body-limits.server";
import { storeBlogImageFile } from "~/controllers/blog-api.server";
import { requireAdmin } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { BLOG_MESSAGES as M, EDITOR_STATUSES, postInputSchema, type PostStatus } from "~/schemas/blog";
import { isPublic, postPath, type BlogPost } from "~/services/blog/common.server";
import { createPost, getPost, publishNowTime, updatePostByAdmin } from "~/services/blog/posts.server";
import { categoryTree, flattenTree, listCategoriesFor } from "~/services/blog/categories.server";
import { isUploadedFile, sentFileName, withMultipart } from "~/services/uploads.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

export type PostFormMode = { kind: "create" } | { kind: "edit"; id: number };

/** The id of /admin/blog/posts/:id/edit, or the 404 page. */
export function postIdParam(value: string | undefined): number {
  const id = Number(value);
  if (!value || !/^\d{1,15}$/.test(value) || !Number.isSafeInteger(id) || id <= 0)
    throw new Response("Invalid post id", { status: 404, statusText: M.postNotFound });
  return id;
}

const permissionFor = (mode: PostFormMode) => ({ permission: mode.kind === "create" ? ("blog.create" as const) : ("blog.edit" as const) });

const postOrNotFound = (id: number, access: Parameters<typeof getPost>[1]): Promise<BlogPost> =>
  orPageNotFound(getPost({ id }, access), M.postNotFound);

/** An ISO time as a datetime-local value in UTC ("2026-11-24T15:00"). */

export type PostFormValues = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category_id: string;
  tags: string;
  status: PostStatus;
  published_at: string;
  is_featured: boolean;
  is_pinned: boolean;
  featured_image: string;
  meta_title: string;
  meta_description: string;
  reading_time: string;
};

export async function postFormLoader(request: Request, mode: PostFormMode) {
  const { access } = await requireAdmin(request, permissionFor(mode));
  const categories = flattenTree(categoryTree(await listCategoriesFor(access))).map((node) => ({
    id: node.id,
    name: node.name,
    depth: node.depth,
  }));
  const post = mode.kind === "edit" ? await postOrNotFound(mode.id, access) : null;
  const zone = await requestTimeZone(request);
  // whoever may write the post may publish it (docs/runtime.md: POST blog.create, PUT blog.edit)
  const statuses = [...EDITOR_STATUSES] as PostStatus[];
  if (post && !statuses.includes(post.status)) statuses.push(post.status);
  const values: PostFormValues = post
    ? {
        title: post.title,
        slug: post.slug,
        excerpt: post.excerpt ?? "",
        content: post.content,
        category_id: post.categoryId ? String(post.categoryId) : "",
        tags: post.tags.map((tag) => tag.name).join(", "),
        status: post.status,
        published_at: toZonedInput(post.publishedAt, zone),
        is_featured: post.isFeatured,
        is_pinned: post.isPinned,
        featured_image: post.featuredImage ?? "",
        meta_title: post.metaTitle ?? "",
        meta_description: post.metaDescription ?? "",
        // empty while it is the computed one, so a longer text gets its longer time
        reading_time: post.readingTime !== readingTime(post.content) ? String(post.readingTime) : "",
      }
    : {
        title: "",
        slug: "",
        excerpt: "",
        content: "",
        category_id: "",
        tags: "",
        status: "draft",
        published_at: "",
        is_featured: false,
        is_pinned: false,
        featured_image: "",
        meta_title: "",
        meta_description: "",
        reading_time: "",
      };
  return {
    mode,
    categories,
    statuses,
    values,
    post: post
      ? {
          id: post.id,
          title: post.title,
          path: postPath(post),
          status: post.status,
          live: isPublic(post),
          createdAt: post.createdAt,
          updatedAt: post.updatedAt,
          author: post.authorUsername,
          views: post.viewCount,
        }
      : null,
  };
}

export type PostFormOutcome = { result?: SubmissionResult<string[]>; fatal: string | null };

export async function postFormAction(request: Request, mode: PostFormMode) {
  // who is asking, before the form is read (and any file stored); the service decides again
  const actor = await requireAdmin(request, permissionFor(mode));
  const current = mode.kind === "edit" ? await postOrNotFound(mode.id, actor.access) : null;
  const language = readLanguage(request);
  const t = translatorFor(language);
  const say = (text: string) => translateMessage(language, text);

  const handle = async (form: FormData): Promise<Response | PostFormOutcome> => {
    const intent = String(form.get("intent") ?? "save");
    // unticked boxes send nothing
    for (const box of ["is_featured", "is_pinned"]) form.set(box, form.get(box) === "on" || form.get(box) === "true" ? "true" : "false");
    if (form.get("remove_featured_image") === "on") form.set("featured_image", "");
    const upload = form.get("featured_upload");
    form.delete("featured_upload");
    let uploadError: string | null = null;
    if (isUploadedFile(upload) && upload.size > 0) {
      try {
        form.set("featured_image", await storeBlogImageFile(upload, actor.user.id));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        uploadError = `${sentFileName(upload)}: ${say(error.message)}`;
      }
    }
    if (intent === "draft") form.set("status", "draft");
    if (intent === "publish") {
      form.set("status", "published");
      form.set("published_at", publishNowTime(current));
    }

    // typed in the admin's zone; the reply shows it again as typed
    const asTyped = await readZonedTimes(request, form, ["published_at"]);
    const submission = parseWithZod(form, { schema: postInputSchema });
    asTyped(submission);
    if (submission.status !== "success") {
      // a missing title or content is said beside its field: saying it again above the form
      // would show the same words two or three times
      const missing = ["title", "content"].some((field) => submission.error?.[field]?.length);
      return { result: submission.reply({ formErrors: missing ? [] : [say(M.saveFailed)] }), fatal: null };
    }
    // a featured image that could not be stored stops the save: the editor sees why, and chooses again
    if (uploadError)
      return {
        result: submission.reply({ fieldErrors: { featured_image: [uploadError] }, formErrors: [`${say(M.saveFailed)}: ${uploadError}`] }),
        fatal: null,
      };

    const value = submission.value;
    try {
      const saved =
        mode.kind === "create"
          ? await createPost(value, actor)
          : await updatePostByAdmin(
              mode.id,
              {
                ...value,
                slug: value.slug ?? null,
                excerpt: value.excerpt ?? null,
                category_id: value.category_id ?? null,
                featured_image: value.featured_image ?? null,
                meta_title: value.meta_title ?? null,
                meta_description: value.meta_description ?? null,
                published_at: value.published_at ?? null,
                tags: value.tags ?? [],
              },
              actor,
            );
      const message =
        intent === "publish" && saved.status === "published"
          ? t("admin.blog.postPublished", { title: saved.title })
          : mode.kind === "create"
            ? t("admin.blog.postCreated", { title: saved.title })
            : t("admin.blog.postUpdated", { title: saved.title });
      return redirectWithToast(`/admin/blog/posts/${saved.id}/edit`, { message });
    } catch (error) {
      if (!isServiceError(error)) throw error;
      const fieldErrors: Record<string, string[]> = {};
      for (const fieldError of error.errors ?? []) (fieldErrors[fieldError.field] ??= []).push(fieldError.message);
      return { result: submission.reply({ formErrors: [`${say(M.saveFailed)}: ${say(error.message)}`], fieldErrors }), fatal: null };
    }
  };

  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return handle(await request.formData());
  try {
    return await withMultipart(
      request,
      {
        maxFileBytes: BLOG_FORM_FILE_STREAM_BYTES,
        maxFiles: 1,
        maxFields: 30,
        maxFieldBytes: BLOG_FORM_FIELD_BYTES,
        maxTotalBytes: BLOG_FORM_FILE_STREAM_BYTES + BLOG_FORM_FIELD_BYTES + MB,
        messages: { fileTooLarge: say(M.imageTooLarge), tooManyFiles: t("admin.blog.oneFeaturedImage") },
      },
      handle,
    );
  } catch (error) {
    // the body could not be read whole: nothing was stored, the form starts again from the saved post
    if (!(error instanceof ApiError)) throw error;
    return { fatal: `${say(M.saveFailed)}: ${say(error.message)}` } satisfies PostFormOutcome;
  }
}
