import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { canAny, QC_PERMISSIONS } from "~/lib/permissions";
import { requireAdmin } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { pendingQuerySchema, reviewSelectionSchema } from "~/schemas/qc";
import { QC_MESSAGES as M, QC_PAGE_SIZES, reviewFailureText, QC_REASON_MAX } from "~/schemas/qc-rules";
import { productPath } from "~/services/catalogue.server";
import { pendingQueue, reviewQcImage, reviewQcImages } from "~/services/qc.server";
import { requireQcViewer, toAdminQcImage } from "~/controllers/admin-qc.server";
import { AdminList } from "~/components/admin/admin-list";

/**
 * /admin/qc-review (docs/product/admin.md 2, 4, 8): the shoppers' photos waiting for review, 20 a
 * page, oldest first; approve or reject each (with an optional reason), or a selection.
 * One form: each photo's buttons name it, so it works without JavaScript. Staff who may
 * see QC management but hold no review permission see the queue without the buttons.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // viewing QC management is open to the admin role and any qc.* holder (docs/product/admin.md 2, 6);
  // approving and rejecting need their permissions (the buttons show only then; the action checks)
  const { access } = await requireQcViewer(request);
  const url = new URL(request.url);
  const query = pendingQuerySchema.parse({ page: url.searchParams.get("page") ?? undefined });
  const page = await pendingQueue({ page: query.page, limit: QC_PAGE_SIZES.pending });
  return {
    allowed: { approve: canAny(access, QC_PERMISSIONS.approve), reject: canAny(access, QC_PERMISSIONS.reject) },
    list: {
      totalItems: page.totalItems,
      totalPages: page.totalPages,
      currentPage: page.page,
      items: page.items.map((image) => ({
        ...toAdminQcImage(image),
        productId: image.productId,
        productName: image.productName,
        productUrl: productPath({ id: image.productId, platform: image.productPlatform, platformItemId: image.productItemId }),
      })),
    },
  };
}

type ActionData = { error: string };

export async function action({ request }: ActionFunctionArgs) {
  // who is asking, before the form is read
  const actor = await requireAdmin(request, { anyOf: QC_PERMISSIONS.review });
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const url = new URL(request.url);
  const back = url.searchParams.get("page") ? `/admin/qc-review?page=${Number(url.searchParams.get("page")) || 1}` : "/admin/qc-review";

  const single = /^(approve|reject):(\d+)$/.exec(intent);
  if (single) {
    const id = Number(single[2]);
    const status = single[1] === "approve" ? "approved" : "rejected";
    try {
      await reviewQcImage(id, { status, reason: String(formData.get(`reason-${id}`) ?? "") }, actor);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.status !== 403)
        return redirectWithToast(back, { type: "error", message: reviewFailureText(error.message) });
      if (error instanceof ApiError && error.status === 403) throw new Response("You do not have permission to do this.", { status: 403 });
      throw error;
    }
    return redirectWithToast(back, { message: status === "approved" ? M.approved(1) : M.rejected(1) });
  }

  if (intent === "approve-selected" || intent === "reject-selected") {
    const parsed = reviewSelectionSchema.safeParse({ ids: formData.getAll("ids") });
    if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? M.chooseToReview } satisfies ActionData;
    const status = intent === "approve-selected" ? "approved" : "rejected";
    let outcome: Awaited<ReturnType<typeof reviewQcImages>>;
    try {
      outcome = await reviewQcImages(parsed.data.ids, { status, reason: String(formData.get("batchReason") ?? "") }, actor);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) throw new Response("You do not have permission to do this.", { status: 403 });
      if (error instanceof ApiError && error.status === 400) return redirectWithToast(back, { type: "error", message: error.message });
      throw error;
    }
    const done = outcome.done ? (status === "approved" ? M.approved(outcome.done) : M.rejected(outcome.done)) : "";
    if (outcome.failed.length === 0) return redirectWithToast(back, { message: done });
    return redirectWithToast(back, {
      type: outcome.done ? "info" : "error",
      message: [done, M.batchFailed(outcome.failed.length)].filter(Boolean).join(" "),
    });
  }

  throw new Response("Unknown action", { status: 400 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "QC review · Admin", noindex: true });

export default function QcReviewPage() {
  const { list, allowed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const searchParams = new URLSearchParams(location.search);
  const formAction = `/admin/qc-review${list.currentPage > 1 ? `?page=${list.currentPage}` : ""}`;
  const reviews = allowed.approve || allowed.reject;

  return (
    <AdminList
      title="QC review"
      count={list.totalItems}
      intro="Photos sent by shoppers wait here, oldest first. Approved photos join the product's gallery; rejected ones are deleted."
      toolbar={
        <Link to="/admin/qc-manager" className="button button--secondary">
          QC file manager
        </Link>
      }
      notice={
        reviews ? null : (
          <p className="notice notice--info">
            You can see the queue; approving and rejecting photos needs the qc.review, qc.approve or qc.reject permission.
          </p>
        )
      }
      items={list.items}
      itemKey={(image) => image.id}
      empty={<EmptyState title="No photos are waiting for review." />}
      selection={
        reviews
          ? {
              action: formAction,
              barClassName: "admin-qc-batch",
              bar: (
                <>
                  <label className="admin-qc-batch__reason">
                    <span className="visually-hidden">Reason for the selected photos (optional)</span>
                    <input type="text" name="batchReason" maxLength={QC_REASON_MAX} placeholder="Reason (optional)" />
                  </label>
                  {allowed.approve ? (
                    <SubmitButton name="intent" value="approve-selected" className="button button--small" pendingText="…">
                      Approve selected
                    </SubmitButton>
                  ) : null}
                  {allowed.reject ? (
                    <SubmitButton name="intent" value="reject-selected" className="button button--danger button--small" pendingText="…">
                      Reject selected
                    </SubmitButton>
                  ) : null}
                </>
              ),
              notice: actionData?.error ? (
                <p className="notice notice--error" role="alert">
                  {actionData.error}
                </p>
              ) : null,
            }
          : null
      }
      renderItems={(images) => (
        <ul className="admin-qc-grid admin-qc-grid--review">
          {images.map((image) => (
            <li key={image.id} className="admin-qc-tile admin-qc-tile--pending">
              <a href={image.url} target="_blank" rel="noreferrer" className="admin-qc-tile__image">
                <img
                  src={image.thumb}
                  width={image.thumbWidth || undefined}
                  height={image.thumbHeight || undefined}
                  alt={`Photo ${image.id} of ${image.productName}`}
                  loading="lazy"
                  decoding="async"
                />
              </a>
              {reviews ? (
                <label className="admin-check">
                  <input type="checkbox" name="ids" value={image.id} />
                  Select photo {image.id}
                </label>
              ) : null}
              <p className="admin-qc-tile__by">
                <a href={image.productUrl} target="_blank" rel="noreferrer">
                  {image.productName}
                </a>
                <br />
                <span className="muted">
                  {image.uploader ?? "deleted user"} · {formatDateTime(image.date)}
                </span>
              </p>
              {reviews ? (
                <label>
                  <span className="visually-hidden">Reason for photo {image.id} (optional)</span>
                  <input type="text" name={`reason-${image.id}`} maxLength={QC_REASON_MAX} placeholder="Reason (optional)" />
                </label>
              ) : null}
              <div className="admin-row-actions">
                {allowed.approve ? (
                  <SubmitButton
                    name="intent"
                    value={`approve:${image.id}`}
                    className="button button--small"
                    pendingText="…"
                    aria-label={`Approve photo ${image.id}`}
                  >
                    Approve
                  </SubmitButton>
                ) : null}
                {allowed.reject ? (
                  <SubmitButton
                    name="intent"
                    value={`reject:${image.id}`}
                    className="button button--secondary button--small"
                    pendingText="…"
                    aria-label={`Reject photo ${image.id}`}
                  >
                    Reject
                  </SubmitButton>
                ) : null}
                <Link to={`/admin/products/${image.productId}/qc`}>All photos</Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      paging={{ currentPage: list.currentPage, totalPages: list.totalPages, searchParams, label: "Review pages" }}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.loadImagesFailed} />;
}
