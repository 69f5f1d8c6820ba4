/**
 * /admin/blog/posts: filters (search, category, status) and page sizes in one GET form,
 * a row per post with the one-click publish toggle, edit, the public link and delete
 * (a confirmation dialog chosen by the URL).
 */
import { Form, Link, useSearchParams } from "@remix-run/react";
import { formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { listAddress, listParams } from "~/lib/list-address";
import type { blogPostListLoader } from "~/controllers/admin-blog.server";
import { ADMIN_POST_PAGE_SIZES, BLOG_ADMIN_PATHS, POST_STATUSES, POST_STATUS_LABELS, type PostStatus } from "~/schemas/blog-rules";
import { AdminConfirmDialog, AdminList, DeleteLink } from "~/components/admin/admin-list";

type Data = Awaited<ReturnType<typeof blogPostListLoader>>;

const PATH = BLOG_ADMIN_PATHS.posts;
const DIALOG_PARAMS = ["modal", "postId"];

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const STATUS_BADGE: Record<PostStatus, string> = {
  published: "admin-badge admin-badge--success",
  scheduled: "admin-badge admin-badge--admin",
  draft: "admin-badge",
  archived: "admin-badge admin-badge--warning",
  private: "admin-badge admin-badge--super_admin",
};

export function BlogPostListPage({ data }: { data: Data }) {
  const [searchParams] = useSearchParams();
  const { query, allowed, posts } = data;
  const here = listAddress(PATH, searchParams, DIALOG_PARAMS);
  const filtered = Boolean(query.search || query.category || query.status !== "all");
  const total = Object.values(data.statusCounts).reduce((sum, n) => sum + n, 0);
  const deleteHref = (post: { id: number }) => listAddress(PATH, searchParams, DIALOG_PARAMS, { modal: "delete", postId: String(post.id) });
  return (
    <AdminList
      title="Blog posts"
      count={total}
      intro={POST_STATUSES.map((status) => `${data.statusCounts[status]} ${POST_STATUS_LABELS[status].toLowerCase()}`).join(" · ")}
      toolbar={
        allowed.create ? (
          <Link to="/admin/blog/posts/new" className="button">
            New post
          </Link>
        ) : null
      }
      filters={
        <Form method="get" action={PATH} className="admin-filters blog-post-filters" role="search">
          <div className="field">
            <label htmlFor="post-search">Search</label>
            <input id="post-search" type="search" name="search" defaultValue={query.search} placeholder="Title, excerpt or slug" />
          </div>
          <div className="field">
            <label htmlFor="post-category">Category</label>
            <select id="post-category" name="category" defaultValue={query.category}>
              <option value="">All categories</option>
              {data.categories.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {`${"— ".repeat(category.depth)}${category.name}`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="post-status">Status</label>
            <select id="post-status" name="status" defaultValue={query.status}>
              <option value="all">All statuses</option>
              {POST_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {`${POST_STATUS_LABELS[status]} (${data.statusCounts[status]})`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="post-limit">Per page</label>
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
              Filter
            </button>
            {filtered ? (
              <Link to={PATH} className="button button--secondary">
                Clear
              </Link>
            ) : null}
          </div>
        </Form>
      }
      items={posts}
      itemKey={(post) => post.id}
      empty={
        <EmptyState title={filtered ? "No posts match these filters." : "No posts yet."}>
          {!filtered && allowed.create ? (
            <p>
              <Link to="/admin/blog/posts/new">Write the first post</Link>
            </p>
          ) : null}
        </EmptyState>
      }
      columns={[
        {
          header: "Title",
          cell: (post) => (
            <>
              <strong>{post.title}</strong>
              <span className="admin-user-cell__meta">
                /{post.slug}
                {post.isPinned ? " · pinned" : ""}
                {post.isFeatured ? " · featured" : ""}
              </span>
              <span className="admin-user-cell__meta">
                by {post.author ?? "—"}, updated {formatDateTime(post.updatedAt)}
              </span>
            </>
          ),
        },
        { header: "Status", cell: (post) => <span className={STATUS_BADGE[post.status]}>{POST_STATUS_LABELS[post.status]}</span> },
        { header: "Category", cell: (post) => post.category ?? "—" },
        { header: "Published", cell: (post) => formatDateTime(post.publishedAt) },
        {
          header: "Stats",
          cell: (post) => `${count(post.views, "view")} · ${count(post.comments, "comment")} · ${count(post.likes, "like")}`,
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
                aria-label={`${post.status === "published" ? "Unpublish" : "Publish"} ${post.title}`}
                pendingText="…"
              >
                {post.status === "published" ? "Unpublish" : "Publish"}
              </SubmitButton>
            </Form>
          ) : null}
          {allowed.edit ? (
            <Link to={`/admin/blog/posts/${post.id}/edit`} aria-label={`Edit ${post.title}`}>
              Edit
            </Link>
          ) : null}
          <a href={post.path} target="_blank" rel="noreferrer" aria-label={`View ${post.title}`}>
            View
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
        label: "Post pages",
      }}
    >
      {data.confirmDelete ? (
        <AdminConfirmDialog
          id="delete-post"
          title="Delete post"
          closeTo={here}
          action={PATH}
          intent="delete"
          fields={{ postId: data.confirmDelete.id, returnTo: here }}
          submitLabel="Delete post"
        >
          <p>
            Delete the post <strong>{data.confirmDelete.title}</strong> with its comments and likes? This cannot be undone.
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}
