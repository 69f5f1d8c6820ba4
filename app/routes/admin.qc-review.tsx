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
import { productPath } from "~/services/catalogue/common.server";
import { pendingQueue, reviewQcImage, reviewQcImages } from "~/services/qc.server";
import { requireQcViewer, toAdminQcImage } from "~/controllers/admin-qc.server";
import { AdminList } from "~/components/admin/admin-list";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n } from "~/i18n/i18n";

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
  // the notices in the reader's language (the services' words are the /api's)
  const language = readLanguage(request);
  const t = translatorFor(language);
  const say = (text: string) => translateMessage(language, text);
  const reviewed = (status: "approved" | "rejected", count: number) =>
    status === "approved" ? t("admin.qcReview.approved", { count }) : t("admin.qcReview.rejected", { count });

  const single = /^(approve|reject):(\d+)$/.exec(intent);
  if (single) {
    const id = Number(single[2]);
    const status = single[1] === "approve" ? "approved" : "rejected";
    try {
      await reviewQcImage(id, { status, reason: String(formData.get(`reason-${id}`) ?? "") }, actor);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.status !== 403)
        return redirectWithToast(back, { type: "error", message: say(reviewFailureText(error.message)) });
      if (error instanceof ApiError && error.status === 403) throw new Response("You do not have permission to do this.", { status: 403 });
      throw error;
    }
    return redirectWithToast(back, { message: reviewed(status, 1) });
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
      if (error instanceof ApiError && error.status === 400) return redirectWithToast(back, { type: "error", message: say(error.message) });
      throw error;
    }
    const done = outcome.done ? reviewed(status, outcome.done) : "";
    if (outcome.failed.length === 0) return redirectWithToast(back, { message: done });
    return redirectWithToast(back, {
      type: outcome.done ? "info" : "error",
      message: [done, t("admin.qc.batchFailed", { count: outcome.failed.length })].filter(Boolean).join(" "),
    });
  }

  throw new Response("Unknown action", { status: 400 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.qcReview.pageTitle", noindex: true });

export default function QcReviewPage() {
  const { list, allowed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, message } = useI18n();
  const location = useLocation();
  const searchParams = new URLSearchParams(location.search);
  const formAction = `/admin/qc-review${list.currentPage > 1 ? `?page=${list.currentPage}` : ""}`;
  const reviews = allowed.approve || allowed.reject;

  return (
    <AdminList
      title={t("admin.qcReview.title")}
      count={list.totalItems}
      intro={t("admin.qcReview.intro")}
      toolbar={
        <Link to="/admin/qc-manager" className="button button--secondary">
          {t("admin.qcReview.fileManager")}
        </Link>
      }
      notice={reviews ? null : <p className="notice notice--info">{t("admin.qcReview.noPermission")}</p>}
      items={list.items}
      itemKey={(image) => image.id}
      empty={<EmptyState title={t("admin.qcReview.empty")} />}
      selection={
        reviews
          ? {
              action: formAction,
              barClassName: "admin-qc-batch",
              bar: (
                <>
                  <label className="admin-qc-batch__reason">
                    <span className="visually-hidden">{t("admin.qcReview.batchReason")}</span>
                    <input type="text" name="batchReason" maxLength={QC_REASON_MAX} placeholder={t("admin.qcReview.reason")} />
                  </label>
                  {allowed.approve ? (
                    <SubmitButton name="intent" value="approve-selected" className="button button--small" pendingText="…">
                      {t("admin.qcReview.approveSelected")}
                    </SubmitButton>
                  ) : null}
                  {allowed.reject ? (
                    <SubmitButton name="intent" value="reject-selected" className="button button--danger button--small" pendingText="…">
                      {t("admin.qcReview.rejectSelected")}
                    </SubmitButton>
                  ) : null}
                </>
              ),
              notice: actionData?.error ? (
                <p className="notice notice--error" role="alert">
                  {message(actionData.error)}
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
                  alt={t("admin.qcReview.photoOf", { id: image.id, name: image.productName })}
                  loading="lazy"
                  decoding="async"
                />
              </a>
              {reviews ? (
                <label className="admin-check">
                  <input type="checkbox" name="ids" value={image.id} />
                  {t("admin.qc.selectPhoto", { id: image.id })}
                </label>
              ) : null}
              <p className="admin-qc-tile__by">
                <a href={image.productUrl} target="_blank" rel="noreferrer">
                  {image.productName}
                </a>
                <br />
                <span className="muted">
                  {image.uploader ?? t("admin.qcReview.deletedUser")} · {formatDateTime(image.date)}
                </span>
              </p>
              {reviews ? (
                <label>
                  <span className="visually-hidden">{t("admin.qcReview.photoReason", { id: image.id })}</span>
                  <input type="text" name={`reason-${image.id}`} maxLength={QC_REASON_MAX} placeholder={t("admin.qcReview.reason")} />
                </label>
              ) : null}
              <div className="admin-row-actions">
                {allowed.approve ? (
                  <SubmitButton
                    name="intent"
                    value={`approve:${image.id}`}
                    className="button button--small"
                    pendingText="…"
                    aria-label={t("admin.qcReview.approvePhoto", { id: image.id })}
                  >
                    {t("admin.qcReview.approve")}
                  </SubmitButton>
                ) : null}
                {allowed.reject ? (
                  <SubmitButton
                    name="intent"
                    value={`reject:${image.id}`}
                    className="button button--secondary button--small"
                    pendingText="…"
                    aria-label={t("admin.qcReview.rejectPhoto", { id: image.id })}
                  >
                    {t("admin.qcReview.reject")}
                  </SubmitButton>
                ) : null}
                <Link to={`/admin/products/${image.productId}/qc`}>{t("admin.qcReview.allPhotos")}</Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      paging={{ currentPage: list.currentPage, totalPages: list.totalPages, searchParams, label: t("admin.qcReview.pages") }}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.loadImagesFailed} />;
}
