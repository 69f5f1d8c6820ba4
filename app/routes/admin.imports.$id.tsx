import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRevalidator, useRouteError, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminList, AdminSegments } from "~/components/admin/admin-list";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { orPageNotFound, pageId } from "~/lib/api.server";
import { listAddress } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { platformLabel } from "~/components/admin/labels";
import { IMPORT_LIMITS, IMPORT_MESSAGES as M, IMPORT_STATUSES } from "~/schemas/import-rules";
import { probablySameAs } from "~/services/catalogue/same-item.server";
import { IMPORT_ACCESS, importJob, importRows, retryFailedRows, type ImportRowStatus } from "~/services/bulk-import.server";
import { adminAction, requireAdmin } from "~/services/permissions.server";
import { readLanguage, translateMessage, translatorFor as serverTranslator } from "~/i18n/i18n.server";
import { translatorFor, useI18n, type Translate } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";
import { StackedBar } from "~/components/admin/stacked-bar";

function rowStatusLabel(t: Translate, status: ImportRowStatus): string {
  switch (status) {
    case "pending":
      return t("admin.importRows.pending");
    case "imported":
      return t("admin.importRows.imported");
    case "exists":
      return t("admin.importRows.exists");
    case "duplicate":
      return t("admin.importRows.duplicate");
    case "not_item":
      return t("admin.importRows.notItem");
    case "failed":
      return t("admin.importRows.failed");
  }
}

const PATH = "/admin/imports";
/** How often a running import's page looks again (a meta refresh without JavaScript, a revalidation with it). */
const REFRESH_SECONDS = 2;

const isStatus = (value: string | null): value is ImportRowStatus => IMPORT_STATUSES.includes(value as ImportRowStatus);

/** /admin/imports/:id: an import's progress and each row's result; failed rows can be tried again. */

/** A part of the whole as a CSS width. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, IMPORT_ACCESS);
  const id = pageId(params.id, M.notFound);
  const job = await orPageNotFound(importJob(id), M.notFound);
  const search = new URL(request.url).searchParams;
  const status = isStatus(search.get("status")) ? (search.get("status") as ImportRowStatus) : null;
  const page = Math.max(1, Number(search.get("page")) || 1);
  const rows = await importRows(id, { status, page });
  // rows whose product's photos match another listing's: "probably the same item as #n"
  const sameAs = await probablySameAs(rows.items.flatMap((row) => (row.productId ? [row.productId] : [])));
  return {
    job,
    sameAs: Object.fromEntries(sameAs),
    status,
    rows: rows.items,
    page,
    totalPages: Math.max(1, Math.ceil(rows.total / IMPORT_LIMITS.pageSize)),
  };
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const id = pageId(params.id, M.notFound);
      const form = await request.formData();
      if (form.get("intent") !== "retry") throw new Response("Unknown action", { status: 400 });
      const count = await orPageNotFound(retryFailedRows(id, actor), M.notFound);
      const language = readLanguage(request);
      return redirectWithToast(
        `${PATH}/${id}`,
        count
          ? { message: serverTranslator(language)("admin.importJob.retried", { count }) }
          : { type: "info", message: translateMessage(language, M.nothingToRetry) },
      );
    },
    IMPORT_ACCESS,
  );

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: data ? t("admin.importJob.pageTitle", { id: data.job.id }) : t("admin.importJob.pageTitleNone"),
    noindex: true,
  });
};

const BADGES: Record<ImportRowStatus, string> = {
  pending: "admin-badge",
  imported: "admin-badge admin-badge--success",
  exists: "admin-badge admin-badge--admin",
  duplicate: "admin-badge",
  not_item: "admin-badge admin-badge--warning",
  failed: "admin-badge admin-badge--danger",
};

export default function ImportJobPage() {
  const { job, status, rows, page, totalPages, sameAs } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const { t, message } = useI18n();
  const running = job.status === "running";
  const done = job.total - job.counts.pending;
  // with JavaScript: the page looks again while the import runs
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const here = (extra: Record<string, string>) => listAddress(`${PATH}/${job.id}`, new URLSearchParams(), [], extra);

  return (
    <AdminList
      title={t("admin.importJob.title", { id: job.id })}
      count={job.total}
      intro={t("admin.importJob.intro", {
        source: job.fileName ?? (job.source === "paste" ? t("admin.imports.sourcePaste") : job.source.toUpperCase()),
        name: job.createdByName ?? t("admin.imports.deletedAccount"),
      })}
      toolbar={
        <>
          {job.counts.failed > 0 && !running ? (
            <Form method="post">
              <SubmitButton name="intent" value="retry" className="button" pendingText="…">
                {t("admin.importJob.retry", { count: job.counts.failed })}
              </SubmitButton>
            </Form>
          ) : null}
          <Link to={PATH} className="button button--secondary">
            {t("admin.importJob.all")}
          </Link>
        </>
      }
      filters={
        <>
          <section className="card import-progress" aria-labelledby="import-progress-title">
            <h2 id="import-progress-title">{running ? t("admin.importJob.importing") : t("admin.imports.done")}</h2>
            {running ? (
              <progress max={job.total} value={done} aria-labelledby="import-progress-title">
                {t("admin.importJob.progress", { done, total: job.total })}
              </progress>
            ) : (
              // finished: the bar says how the rows ended (imported, already there, failed), not
              // only that all were read: 16 of 20 failed is a mostly red bar, not a full blue one
              <StackedBar
                className="import-outcome"
                role="img"
                aria-label={t("admin.importJob.outcome", {
                  imported: job.counts.imported,
                  known: job.counts.exists + job.counts.duplicate,
                  failed: job.counts.failed + job.counts.not_item,
                  total: job.total,
                })}
                total={job.total}
                parts={[
                  { value: job.counts.imported, tone: "good", className: "import-outcome__imported" },
                  { value: job.counts.exists + job.counts.duplicate, tone: "neutral", className: "import-outcome__known" },
                  { value: job.counts.failed + job.counts.not_item, tone: "bad", className: "import-outcome__failed" },
                ]}
              />
            )}
            <p role="status">
              {t("admin.importJob.summary", {
                done,
                total: job.total,
                imported: job.counts.imported,
                exists: job.counts.exists,
                duplicate: job.counts.duplicate,
                notItem: job.counts.not_item,
                failed: job.counts.failed,
              })}
            </p>
            {running ? (
              <noscript>
                <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
                <p className="muted">{t("admin.importJob.refreshes", { seconds: REFRESH_SECONDS })}</p>
              </noscript>
            ) : null}
          </section>
          <AdminSegments
            label={t("admin.importJob.rowsByResult")}
            segments={[
              { key: "all", href: here({}), current: status === null, label: `${t("admin.users.filterAll")} (${job.total})` },
              ...IMPORT_STATUSES.filter((one) => job.counts[one] > 0 || one === status).map((one) => ({
                key: one,
                href: here({ status: one }),
                current: status === one,
                label: `${rowStatusLabel(t, one)} (${job.counts[one]})`,
              })),
            ]}
          />
        </>
      }
      items={rows}
      itemKey={(row) => row.id}
      empty={<EmptyState title={t("admin.importJob.empty")} />}
      columns={[
        { header: t("admin.importJob.colRow"), cell: (row) => row.position },
        {
          header: t("admin.importJob.colLink"),
          className: "admin-table__wrap",
          cell: (row) => (
            <>
              <code className="import-row__link">{row.link}</code>
              {row.platform && row.itemId ? (
                <span className="admin-user-cell__meta">{`${platformLabel(t, row.platform)} ${row.itemId}`}</span>
              ) : null}
            </>
          ),
        },
        {
          header: t("admin.imports.colResult"),
          className: "admin-table__wrap",
          cell: (row) => (
            <>
              <span className={BADGES[row.status]}>{rowStatusLabel(t, row.status)}</span>
              {row.message ? <span className="admin-user-cell__meta">{message(row.message)}</span> : null}
              {row.productId && sameAs[row.productId]
                ? sameAs[row.productId].slice(0, 3).map((other) => (
                    <Link key={other} className="admin-user-cell__meta" to={`/admin/products/${row.productId}/edit#same-item`}>
                      {t("admin.sameItem.asN", { n: other })}
                    </Link>
                  ))
                : null}
            </>
          ),
        },
      ]}
      actions={(row) =>
        row.productId ? (
          <>
            <Link to={`/admin/products/${row.productId}/edit`} aria-label={t("admin.importJob.editRow", { n: row.position })}>
              {t("admin.common.edit")}
            </Link>
            <a
              href={`/product/${row.productId}`}
              target="_blank"
              rel="noreferrer"
              aria-label={t("admin.importJob.viewRow", { n: row.position })}
            >
              {t("admin.common.view")}
            </a>
          </>
        ) : null
      }
      paging={{ currentPage: page, totalPages, searchParams, label: t("admin.importJob.pages") }}
    />
  );
}

export function ErrorBoundary() {
  const { t } = useI18n();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.importJob.loadFailed")} />;
}
