import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { commentQueueAction, commentQueueLoader } from "~/controllers/admin-blog.server";
import { listAddress, listParams } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { BLOG_ADMIN_PATHS, BLOG_MESSAGES, COMMENT_STATUS_LABELS, COMMENT_STATUSES, type CommentStatus } from "~/schemas/blog-rules";
import { AdminConfirmDialog, AdminList, AdminSegments, DeleteLink } from "~/components/admin/admin-list";

const COMMENTS_PATH = BLOG_ADMIN_PATHS.comments;

/** /admin/blog/comments (blog.edit): the moderation queue; approve, reject, mark as spam, delete. */
export const loader = ({ request }: LoaderFunctionArgs) => commentQueueLoader(request);
export const action = ({ request }: ActionFunctionArgs) => commentQueueAction(request);

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Comments · Admin", noindex: true });

const DIALOG_PARAMS = ["modal", "commentId"];
const ACTIONS: Array<{ status: CommentStatus; label: string }> = [
  { status: "approved", label: "Approve" },
  { status: "rejected", label: "Reject" },
  { status: "spam", label: "Spam" },
  { status: "pending", label: "Back to pending" },
];

export default function AdminBlogComments() {
  const data = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const here = listAddress(COMMENTS_PATH, searchParams, DIALOG_PARAMS);
  const tab = (status: string) => listAddress(COMMENTS_PATH, new URLSearchParams(), [], status === "pending" ? {} : { status });
  return (
    <AdminList
      title="Comments"
      count={data.total}
      intro="Comments wait here when moderation is on, when they hold more than two links, or when you send them back."
      filters={
        <AdminSegments
          label="Comment status"
          segments={[...COMMENT_STATUSES, "all" as const].map((status) => ({
            key: status,
            href: tab(status),
            current: data.status === status,
            label: status === "all" ? "All" : `${COMMENT_STATUS_LABELS[status]} (${data.counts[status]})`,
          }))}
        />
      }
      items={data.comments}
      itemKey={(comment) => comment.id}
      empty={<EmptyState title={data.status === "pending" ? "No comments wait for moderation." : "No comments here."} />}
      renderItems={(comments) => (
        <ul className="admin-comments">
          {comments.map((comment) => (
            <li key={comment.id} className="card admin-comment" id={`comment-${comment.id}`}>
              <p className="admin-comment__head">
                <strong>{comment.author}</strong> on{" "}
                <a href={comment.post.path} target="_blank" rel="noreferrer">
                  {comment.post.title}
                </a>{" "}
                <span className="muted">
                  {`· ${formatDateTime(comment.createdAt)}${comment.isReply ? " · reply" : ""} · ${comment.likes} like${comment.likes === 1 ? "" : "s"}`}
                </span>{" "}
                <span className="admin-badge">{COMMENT_STATUS_LABELS[comment.status]}</span>
              </p>
              <div className="admin-comment__body blog-comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
              <div className="admin-row-actions">
                <Form method="post" action={COMMENTS_PATH} className="admin-inline-form" preventScrollReset>
                  <input type="hidden" name="commentId" value={comment.id} />
                  <input type="hidden" name="returnTo" value={here} />
                  <input type="hidden" name="intent" value="moderate" />
                  {ACTIONS.filter((action) => action.status !== comment.status).map((action) => (
                    <SubmitButton
                      key={action.status}
                      name="status"
                      value={action.status}
                      className={action.status === "approved" ? "button button--small" : "button button--secondary button--small"}
                      aria-label={`${action.label}: comment by ${comment.author}`}
                      pendingText="…"
                    >
                      {action.label}
                    </SubmitButton>
                  ))}
                </Form>
                <DeleteLink
                  to={listAddress(COMMENTS_PATH, searchParams, DIALOG_PARAMS, { modal: "delete", commentId: String(comment.id) })}
                  name={`the comment by ${comment.author}`}
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
        label: "Comment pages",
      }}
    >
      {data.confirmDelete ? (
        <AdminConfirmDialog
          id="delete-comment"
          title="Delete comment"
          closeTo={here}
          action={COMMENTS_PATH}
          intent="delete"
          fields={{ commentId: data.confirmDelete, returnTo: here }}
          submitLabel="Delete comment"
        >
          <p>Delete this comment and its replies? This cannot be undone.</p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.loadFailed} />;
}
