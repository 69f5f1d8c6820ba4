/**
 * /admin/blog/posts: filters (search, category, status) and page sizes in one GET form,
 * a row per post with the one-click publish toggle, edit, the public link and delete
 * (a confirmation dialog chosen by the URL).
 */
import { Form, Link, useSearchParams } from "@remix-run/react";
import { formatDateTime } from "~/components/admin/format";
import { useZonedTime } from "~/components/admin/time-zone";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { listAddress, listParams } from "~/lib/list-address";
import type { blogPostListLoader } from "~/controllers/admin-blog.server";
import { ADMIN_POST_PAGE_SIZES, BLOG_ADMIN_PATHS, POST_STATUSES, type PostStatus } from "~/schemas/blog-rules";
import { useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "./emphasis";
import { postStatusLabel } from "./labels";
import { AdminConfirmDialog, AdminList, DeleteLink } from "~/components/admin/admin-list";

type Data = Awaited<ReturnType<typeof blogPostListLoader>>;

const PATH = BLOG_ADMIN_PATHS.posts;
const DIALOG_PARAMS = ["modal", "postId"];

const STATUS_BADGE: Record<PostStatus, string> = {
  published: "admin-badge admin-badge--success",
  scheduled: "admin-badge admin-badge--admin",
  draft: "admin-badge",
  archived: "admin-badge admin-badge--warning",
  private: "admin-badge admin-badge--super_admin",
};

export function BlogPostListPage({ data }: { data: Data }) {
  const t = useT();
  const zoned = useZonedTime();
  const [searchParams] = useSearchParams();
  const { query, allowed, posts } = data;
  const here = listAddress(PATH, searchParams, DIALOG_PARAMS);
  const filtered = Boolean(query.search || query.category || query.status !== "all");
  const total = Object.values(data.statusCounts).reduce((sum, n) => sum + n, 0);
  const deleteHref = (post: { id: number }) => listAddress(PATH, searchParams, DIALOG_PARAMS, { modal: "delete", postId: String(post.id) });
  return (
    <AdminList
      title={t("admin.nav.blogPosts")}
      count={total}
      intro={POST_STATUSES.map((status) =>
        t("admin.blogPosts.statusCount", { count: data.statusCounts[status], status: postStatusLabel(t, status).toLowerCase() }),
      ).join(" · ")}
      toolbar={
        allowed.create ? (
          <Link to="/admin/blog/posts/new" className="button">
            {t("admin.blogPost.newTitle")}
          </Link>
        ) : null
      }
      filters={
        <Form method="get" action={PATH} className="admin-filters blog-post-filters" role="search">
          <div className="field">
            <label htmlFor="post-search">{t("admin.common.search")}</label>
            <input
              id="post-search"
              type="search"
              name="search"
              defaultValue={query.search}
              placeholder={t("admin.blogPosts.searchPlaceholder")}
            />
          </div>
          <div className="field">
            <label htmlFor="post-category">{t("admin.blogPost.category")}</label>
            <select id="post-category" name="category" defaultValue={query.category}>
              <option value="">{t("admin.blogPosts.allCategories")}</option>
              {data.categories.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {`${"— ".repeat(category.depth)}${category.name}`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="post-status">{t("admin.blogPost.status")}</label>
            <select id="post-status" name="status" defaultValue={query.status}>
              <option value="all">{t("admin.blogPosts.allStatuses")}</option>
              {POST_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {`${postStatusLabel(t, status)} (${data.statusCounts[status]})`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="post-limit">{t("admin.blogPosts.perPage")}</label>
            <select id="post-limit" name="limit" defaultValue={String(query.limit)}>
              {ADMIN_POST_PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
          <div className="form-actions">
            <button type="submit" className="button">
              {t("admin.blogPosts.filter")}
            </button>
            {filtered ? (
              <Link to={PATH} className="button button--secondary">
                {t("admin.blogPosts.clear")}
              </Link>
            ) : null}
          </div>
        </Form>
      }
      items={posts}
      itemKey={(post) => post.id}
      empty={
        <EmptyState title={filtered ? t("admin.blogPosts.noMatch") : t("admin.blogPosts.empty")}>
          {!filtered && allowed.create ? (
            <p>
              <Link to="/admin/blog/posts/new">{t("admin.blogPosts.writeFirst")}</Link>
            </p>
          ) : null}
        </EmptyState>
      }
      columns={[
        {
          header: t("admin.blogPost.title"),
          cell: (post) => (
            <>
              <strong>{post.title}</strong>
              <span className="admin-user-cell__meta">
                /{post.slug}
                {post.isPinned ? ` · ${t("admin.blogPosts.pinned")}` : ""}
                {post.isFeatured ? ` · ${t("admin.blogPosts.featured")}` : ""}
              </span>
              <span className="admin-user-cell__meta">
                {t("admin.blogPosts.byline", { author: post.author ?? "—", updated: formatDateTime(post.updatedAt) })}
              </span>
            </>
          ),
        },
        {
          header: t("admin.blogPost.status"),
          cell: (post) => <span className={STATUS_BADGE[post.status]}>{postStatusLabel(t, post.status)}</span>,
        },
        { header: t("admin.blogPost.category"), cell: (post) => post.category ?? "—" },
        { header: t("admin.blogPosts.colPublished"), cell: (post) => zoned.format(post.publishedAt) },
        {
          header: t("admin.blogPosts.colStats"),
          cell: (post) =>
            `${t("admin.blogPosts.views", { count: post.views })} · ${t("admin.blogPosts.comments", { count: post.comments })} · ${t("admin.blogPosts.likes", { count: post.likes })}`,
        },
      ]}
      actions={(post) => (
        <>
          {allowed.publish ? (
            <Form method="post" action={PATH} className="admin-inline-form" preventScrollReset>
              <input type="hidden" name="postId" value={post.id} />
              <input type="hidden" name="returnTo" value={here} />
              <SubmitButton
                name="intent"
                value="toggle"
                className="button button--secondary button--small"
                aria-label={
                  post.status === "published"
                    ? t("admin.blogPosts.unpublishName", { name: post.title })
                    : t("admin.blogPosts.publishName", { name: post.title })
                }
                pendingText="…"
              >
                {post.status === "published" ? t("admin.blogPosts.unpublish") : t("admin.blogPosts.publish")}
              </SubmitButton>
            </Form>
          ) : null}
          {allowed.edit ? (
            <Link to={`/admin/blog/posts/${post.id}/edit`} aria-label={t("admin.common.editName", { name: post.title })}>
              {t("admin.common.edit")}
            </Link>
          ) : null}
          <a href={post.path} target="_blank" rel="noreferrer" aria-label={t("admin.blogPosts.viewName", { name: post.title })}>
            {t("admin.common.view")}
          </a>
          {allowed.delete ? <DeleteLink to={deleteHref(post)} name={post.title} /> : null}
        </>
      )}
      paging={{
        currentPage: data.page,
        totalPages: data.totalPages,
        searchParams: listParams(searchParams, DIALOG_PARAMS),
        basePath: PATH,
        variant: "ends",
        label: t("admin.blogPosts.pages"),
      }}
    >
      {data.confirmDelete ? (
        <AdminConfirmDialog
          id="delete-post"
          title={t("admin.blogPosts.deleteTitle")}
          closeTo={here}
          action={PATH}
          intent="delete"
          fields={{ postId: data.confirmDelete.id, returnTo: here }}
          submitLabel={t("admin.blogPosts.deleteTitle")}
        >
          <p>
            <Emphasis text={t("admin.blogPosts.deleteConfirm", { name: MARK })}>{data.confirmDelete.title}</Emphasis>
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}
