import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminList } from "~/components/admin/admin-list";
import { formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { isServiceError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { IMPORT_LIMITS, IMPORT_MESSAGES as M } from "~/schemas/import-rules";
import { IMPORT_ACCESS, importJob, importJobs, startImport } from "~/services/bulk-import.server";
import { adminAction, requireAdmin } from "~/services/permissions.server";
import { isUploadedFile, sentFileName, withMultipart } from "~/services/uploads.server";

const PATH = "/admin/imports";

/** /admin/imports (product.create): paste links or upload a CSV/XLSX export; the imports so far. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, IMPORT_ACCESS);
  const page = Math.max(1, Number(new URL(request.url).searchParams.get("page")) || 1);
  const list = await importJobs(page);
  return {
    jobs: list.items,
    page,
    totalPages: Math.max(1, Math.ceil(list.total / IMPORT_LIMITS.jobsPageSize)),
    total: list.total,
  };
}

type ActionData = { error: string; field: "links" | "file"; links: string };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      let links = "";
      const start = async (form: FormData) => {
        links = String(form.get("links") ?? "");
        const upload = form.get("file");
        const file = isUploadedFile(upload) && upload.size > 0 ? upload : null;
        return startImport(
          {
            text: links,
            file: file ? { name: sentFileName(file), type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) } : null,
          },
          actor,
        );
      };
      try {
        // a form with a file is multipart; links alone may come urlencoded
        const multipart = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
        const id = multipart
          ? await withMultipart(
              request,
              {
                maxFileBytes: IMPORT_LIMITS.fileBytes,
                maxFiles: 1,
                maxFields: 4,
                // 1,000 links of a few hundred characters
                maxFieldBytes: 1024 * 1024,
                messages: { fileTooLarge: M.tooBig, tooManyFiles: M.notSheet },
                tooManyFilesStatus: 400,
              },
              start,
            )
          : await start(await request.formData());
        const job = await importJob(id);
        return redirectWithToast(`${PATH}/${id}`, { message: M.started(job.total) });
      } catch (error) {
        if (!isServiceError(error)) throw error;
        const field =
          error.errors?.[0]?.field === "links" ? "links" : error.status === 413 || error.errors?.[0]?.field === "file" ? "file" : "links";
        return { error: error.message, field, links } satisfies ActionData;
      }
    },
    IMPORT_ACCESS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Bulk import · Admin", noindex: true });

const SOURCE_LABELS = { paste: "Pasted links", csv: "CSV file", xlsx: "XLSX file" } as const;

export default function BulkImports() {
  const { jobs, page, totalPages, total } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  return (
    <AdminList
      title="Bulk import"
      count={total}
      intro="Paste up to 1,000 product links (one a line, or several in a line), or upload a spreadsheet export (CSV or XLSX, up to 5 MB and 1,000 rows). The import runs in the background; each row gets its result."
      toolbar={
        <Link to="/admin/external-products" className="button button--secondary">
          External products
        </Link>
      }
      filters={
        <section className="card" aria-labelledby="new-import-title">
          <h2 id="new-import-title">New import</h2>
          <Form method="post" encType="multipart/form-data" action={PATH} className="admin-form">
            <div className="field">
              <label htmlFor="import-links">Links</label>
              <textarea
                id="import-links"
                name="links"
                rows={6}
                defaultValue={failed?.links ?? ""}
                placeholder={"https://weidian.com/item.html?itemID=…\nhttps://item.taobao.com/item.htm?id=…"}
                aria-describedby={failed?.field === "links" ? "import-links-errors" : undefined}
                aria-invalid={failed?.field === "links" || undefined}
                className="admin-textarea--mono"
              />
              <FormErrors id="import-links-errors" errors={failed?.field === "links" ? [failed.error] : []} />
            </div>
            <div className="field">
              <label htmlFor="import-file">Or a spreadsheet (CSV or XLSX)</label>
              <input
                id="import-file"
                name="file"
                type="file"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-describedby={failed?.field === "file" ? "import-file-errors" : "import-file-help"}
                aria-invalid={failed?.field === "file" || undefined}
              />
              <p id="import-file-help" className="muted">
                Every row is one product: the first link in it that names an item (a marketplace's or an agent's link, or an item id). A
                first row without a link (the headings) is skipped.
              </p>
              <FormErrors id="import-file-errors" errors={failed?.field === "file" ? [failed.error] : []} />
            </div>
            <div className="form-actions">
              <SubmitButton className="button" pendingText="Starting…">
                Start import
              </SubmitButton>
            </div>
          </Form>
        </section>
      }
      items={jobs}
      itemKey={(job) => job.id}
      empty={<EmptyState title="No imports yet." />}
      columns={[
        {
          header: "Import",
          cell: (job) => (
            <>
              <Link to={`${PATH}/${job.id}`}>
                <strong>#{job.id}</strong> {job.fileName ?? SOURCE_LABELS[job.source]}
              </Link>
              <span className="admin-user-cell__meta">
                by {job.createdByName ?? "a deleted account"}, {formatDateTime(job.createdAt)}
              </span>
            </>
          ),
        },
        { header: "Rows", cell: (job) => job.total },
        {
          header: "Result",
          cell: (job) =>
            `${job.counts.imported} imported · ${job.counts.exists} already there · ${job.counts.not_item + job.counts.duplicate} skipped · ${job.counts.failed} failed`,
        },
        {
          header: "Status",
          cell: (job) =>
            job.status === "done" ? (
              <span className="admin-badge admin-badge--success">Done</span>
            ) : (
              <span className="admin-badge admin-badge--warning">{`Running: ${job.total - job.counts.pending} of ${job.total}`}</span>
            ),
        },
      ]}
      paging={{ currentPage: page, totalPages, searchParams, label: "Import pages" }}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The imports could not be loaded." />;
}
