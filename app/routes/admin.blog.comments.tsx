import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { commentQueueAction, commentQueueLoader } from "~/controllers/admin-blog.server";
import { listAddress, listParams } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { BLOG_ADMIN_PATHS, BLOG_MESSAGES, COMMENT_STATUSES, type CommentStatus } from "~/schemas/blog-rules";
import { useT, type Translate } from "~/i18n/i18n";
import { commentStatusLabel } from "~/components/admin/labels";
import { AdminConfirmDialog, AdminList, AdminSegments, DeleteLink } from "~/components/admin/admin-list";

const COMMENTS_PATH = BLOG_ADMIN_PATHS.comments;

/** /admin/blog/comments (blog.edit): the moderation queue; approve, reject, mark as spam, delete. */
export const loader = ({ request }: LoaderFunctionArgs) => commentQueueLoader(request);
export const action = ({ request }: ActionFunctionArgs) => commentQueueAction(request);

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.blogComments.pageTitle", noindex: true });

const DIALOG_PARAMS = ["modal", "commentId"];
const ACTIONS: CommentStatus[] = ["approved", "rejected", "spam", "pending"];

/** A moderation button's words: what it turns the comment into. */
function actionLabel(t: Translate, status: CommentStatus): string {
  switch (status) {
    case "approved":
      return t("admin.blogComments.approve");
    case "rejected":
      return t("admin.blogComments.reject");
    case "spam":
      return t("admin.blogComments.spam");
    case "pending":
      return t("admin.blogComments.backToPending");
  }
}

export default function AdminBlogComments() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const [searchParams] = useSearchParams();
  const here = listAddress(COMMENTS_PATH, searchParams, DIALOG_PARAMS);
  const tab = (status: string) => listAddress(COMMENTS_PATH, new URLSearchParams(), [], status === "pending" ? {} : { status });
  return (
    <AdminList
      title={t("admin.nav.blogComments")}
      count={data.total}
      intro={t("admin.blogComments.intro")}
      filters={
        <AdminSegments
          label={t("admin.blogComments.statusLabel")}
          segments={[...COMMENT_STATUSES, "all" as const].map((status) => ({
            key: status,
            href: tab(status),
            current: data.status === status,
            label: status === "all" ? t("admin.users.filterAll") : `${commentStatusLabel(t, status)} (${data.counts[status]})`,
          }))}
        />
      }
      items={data.comments}
      itemKey={(comment) => comment.id}
      empty={<EmptyState title={data.status === "pending" ? t("admin.blogComments.emptyPending") : t("admin.blogComments.empty")} />}
      renderItems={(comments) => (
        <ul className="admin-comments">
          {comments.map((comment) => (
            <li key={comment.id} className="card admin-comment" id={`comment-${comment.id}`}>
              <p className="admin-comment__head">
                <strong>{comment.author}</strong> {t("admin.blogComments.on")}{" "}
                <a href={comment.post.path} target="_blank" rel="noreferrer">
                  {comment.post.title}
                </a>{" "}
                <span className="muted">
                  {`· ${formatDateTime(comment.createdAt)}${comment.isReply ? ` · ${t("admin.blogComments.reply")}` : ""} · ${t("admin.blogPosts.likes", { count: comment.likes })}`}
                </span>{" "}
                <span className="admin-badge">{commentStatusLabel(t, comment.status)}</span>
              </p>
              <div className="admin-comment__body blog-comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
              <div className="admin-row-actions">
                <Form method="post" action={COMMENTS_PATH} className="admin-inline-form" preventScrollReset>
                  <input type="hidden" name="commentId" value={comment.id} />
                  <input type="hidden" name="returnTo" value={here} />
                  <input type="hidden" name="intent" value="moderate" />
                  {ACTIONS.filter((status) => status !== comment.status).map((status) => (
                    <SubmitButton
                      key={status}
                      name="status"
                      value={status}
                      className={status === "approved" ? "button button--small" : "button button--secondary button--small"}
                      aria-label={t("admin.blogComments.actionOn", { action: actionLabel(t, status), author: comment.author })}
                      pendingText="…"
                    >
                      {actionLabel(t, status)}
                    </SubmitButton>
                  ))}
                </Form>
                <DeleteLink
                  to={listAddress(COMMENTS_PATH, searchParams, DIALOG_PARAMS, { modal: "delete", commentId: String(comment.id) })}
                  name={t("admin.blogComments.commentBy", { author: comment.author })}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      paging={{
        currentPage: data.page,
        totalPages: data.totalPages,
        searchParams: listParams(searchParams, DIALOG_PARAMS),
        basePath: COMMENTS_PATH,
        variant: "ends",
        label: t("admin.blogComments.pages"),
      }}
    >
      {data.confirmDelete ? (
        <AdminConfirmDialog
          id="delete-comment"
          title={t("admin.blogComments.deleteTitle")}
          closeTo={here}
          action={COMMENTS_PATH}
          intent="delete"
          fields={{ commentId: data.confirmDelete, returnTo: here }}
          submitLabel={t("admin.blogComments.deleteTitle")}
        >
          <p>{t("admin.blogComments.deleteConfirm")}</p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.loadFailed} />;
}
