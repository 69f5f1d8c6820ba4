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
import { PLATFORM_LABELS } from "~/schemas/catalogue-rules";
import { IMPORT_LIMITS, IMPORT_MESSAGES as M, IMPORT_STATUS_LABELS, IMPORT_STATUSES } from "~/schemas/import-rules";
import { IMPORT_ACCESS, importJob, importRows, retryFailedRows, type ImportRowStatus } from "~/services/bulk-import.server";
import { adminAction, requireAdmin } from "~/services/permissions.server";

const PATH = "/admin/imports";
/** How often a running import's page looks again (a meta refresh without JavaScript, a revalidation with it). */
const REFRESH_SECONDS = 2;

const isStatus = (value: string | null): value is ImportRowStatus => IMPORT_STATUSES.includes(value as ImportRowStatus);

/** /admin/imports/:id: an import's progress and each row's result; failed rows can be tried again. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, IMPORT_ACCESS);
  const id = pageId(params.id, M.notFound);
  const job = await orPageNotFound(importJob(id), M.notFound);
  const search = new URL(request.url).searchParams;
  const status = isStatus(search.get("status")) ? (search.get("status") as ImportRowStatus) : null;
  const page = Math.max(1, Number(search.get("page")) || 1);
  const rows = await importRows(id, { status, page });
  return {
    job,
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
      return redirectWithToast(`${PATH}/${id}`, count ? { message: M.retried(count) } : { type: "info", message: M.nothingToRetry });
    },
    IMPORT_ACCESS,
  );

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data ? `Import #${data.job.id} · Admin` : "Import · Admin", noindex: true });

const BADGES: Record<ImportRowStatus, string> = {
  pending: "admin-badge",
  imported: "admin-badge admin-badge--success",
  exists: "admin-badge admin-badge--admin",
  duplicate: "admin-badge",
  not_item: "admin-badge admin-badge--warning",
  failed: "admin-badge admin-badge--danger",
};

export default function ImportJobPage() {
  const { job, status, rows, page, totalPages } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
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
      title={`Import #${job.id}`}
      count={job.total}
      intro={`${job.fileName ?? (job.source === "paste" ? "Pasted links" : job.source.toUpperCase())}, started by ${job.createdByName ?? "a deleted account"}.`}
      toolbar={
        <>
          {job.counts.failed > 0 && !running ? (
            <Form method="post">
              <SubmitButton name="intent" value="retry" className="button" pendingText="…">
                {`Try the ${job.counts.failed} failed row${job.counts.failed === 1 ? "" : "s"} again`}
              </SubmitButton>
            </Form>
          ) : null}
          <Link to={PATH} className="button button--secondary">
            All imports
          </Link>
        </>
      }
      filters={
        <>
          <section className="card import-progress" aria-labelledby="import-progress-title">
            <h2 id="import-progress-title">{running ? "Importing…" : "Done"}</h2>
            <progress max={job.total} value={done} aria-labelledby="import-progress-title">
              {`${done} of ${job.total}`}
            </progress>
            <p role="status">
              {`${done} of ${job.total} rows done. Imported: ${job.counts.imported}. Already there: ${job.counts.exists}. Duplicates: ${job.counts.duplicate}. Not items: ${job.counts.not_item}. Failed: ${job.counts.failed}.`}
            </p>
            {running ? (
              <noscript>
                <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
                <p className="muted">This page refreshes itself every {REFRESH_SECONDS} seconds until the import is done.</p>
              </noscript>
            ) : null}
          </section>
          <AdminSegments
            label="Rows by result"
            segments={[
              { key: "all", href: here({}), current: status === null, label: `All (${job.total})` },
              ...IMPORT_STATUSES.filter((one) => job.counts[one] > 0 || one === status).map((one) => ({
                key: one,
                href: here({ status: one }),
                current: status === one,
                label: `${IMPORT_STATUS_LABELS[one]} (${job.counts[one]})`,
              })),
            ]}
          />
        </>
      }
      items={rows}
      itemKey={(row) => row.id}
      empty={<EmptyState title="No rows with this result." />}
      columns={[
        { header: "Row", cell: (row) => row.position },
        {
          header: "Link",
          className: "admin-table__wrap",
          cell: (row) => (
            <>
              <code className="import-row__link">{row.link}</code>
              {row.platform && row.itemId ? (
                <span className="admin-user-cell__meta">{`${PLATFORM_LABELS[row.platform]} ${row.itemId}`}</span>
              ) : null}
            </>
          ),
        },
        {
          header: "Result",
          className: "admin-table__wrap",
          cell: (row) => (
            <>
              <span className={BADGES[row.status]}>{IMPORT_STATUS_LABELS[row.status]}</span>
              {row.message ? <span className="admin-user-cell__meta">{row.message}</span> : null}
            </>
          ),
        },
      ]}
      actions={(row) =>
        row.productId ? (
          <>
            <Link to={`/admin/products/${row.productId}/edit`} aria-label={`Edit the product of row ${row.position}`}>
              Edit
            </Link>
            <a href={`/product/${row.productId}`} target="_blank" rel="noreferrer" aria-label={`View the product of row ${row.position}`}>
              View
            </a>
          </>
        ) : null
      }
      paging={{ currentPage: page, totalPages, searchParams, label: "Row pages" }}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The import could not be loaded." />;
}
