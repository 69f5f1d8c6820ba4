import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
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
import { isUploadedFile, sentFileName, uploadedBytes, withMultipart } from "~/services/uploads.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n } from "~/i18n/i18n";

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
      // the notices in the reader's language (the services' words are the /api's)
      const language = readLanguage(request);
      const t = translatorFor(language);
      const say = (text: string) => translateMessage(language, text);
      const start = async (form: FormData) => {
        links = String(form.get("links") ?? "");
        const upload = form.get("file");
        const file = isUploadedFile(upload) && upload.size > 0 ? upload : null;
        return startImport(
          {
            text: links,
            file: file ? { name: sentFileName(file), type: file.type, bytes: await uploadedBytes(file) } : null,
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
                messages: { fileTooLarge: say(M.tooBig), tooManyFiles: say(M.notSheet) },
                tooManyFilesStatus: 400,
              },
              start,
            )
          : await start(await request.formData());
        const job = await importJob(id);
        return redirectWithToast(`${PATH}/${id}`, {
          message: t("admin.imports.started", { count: job.total, rows: job.total.toLocaleString(language === "en" ? "en-US" : language) }),
        });
      } catch (error) {
        if (!isServiceError(error)) throw error;
        const field =
          error.errors?.[0]?.field === "links" ? "links" : error.status === 413 || error.errors?.[0]?.field === "file" ? "file" : "links";
        // refused whole, nothing imported: a 400 (or the 413 of a file over the limit) with the form as sent
        return data({ error: say(error.message), field, links } satisfies ActionData, { status: error.status });
      }
    },
    IMPORT_ACCESS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.imports.pageTitle", noindex: true });

export default function BulkImports() {
  const { jobs, page, totalPages, total } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { t, message } = useI18n();
  const sourceLabel = (source: "paste" | "csv" | "xlsx") =>
    source === "paste" ? t("admin.imports.sourcePaste") : source === "csv" ? t("admin.imports.sourceCsv") : t("admin.imports.sourceXlsx");
  return (
    <AdminList
      title={t("admin.products.bulkImport")}
      count={total}
      intro={t("admin.imports.intro")}
      toolbar={
        <Link to="/admin/external-products" className="button button--secondary">
          {t("admin.products.externalTitle")}
        </Link>
      }
      filters={
        <section className="card" aria-labelledby="new-import-title">
          <h2 id="new-import-title">{t("admin.imports.newTitle")}</h2>
          <Form method="post" encType="multipart/form-data" action={PATH} className="admin-form">
            <div className="field">
              <label htmlFor="import-links">{t("admin.imports.links")}</label>
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
              <FormErrors id="import-links-errors" errors={failed?.field === "links" ? [message(failed.error)] : []} />
            </div>
            <div className="field">
              <label htmlFor="import-file">{t("admin.imports.file")}</label>
              <input
                id="import-file"
                name="file"
                type="file"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-describedby={failed?.field === "file" ? "import-file-errors" : "import-file-help"}
                aria-invalid={failed?.field === "file" || undefined}
              />
              <p id="import-file-help" className="muted">
                {t("admin.imports.fileHelp")}
              </p>
              <FormErrors id="import-file-errors" errors={failed?.field === "file" ? [message(failed.error)] : []} />
            </div>
            <div className="form-actions">
              <SubmitButton className="button" pendingText={t("admin.imports.starting")}>
                {t("admin.imports.start")}
              </SubmitButton>
            </div>
          </Form>
        </section>
      }
      items={jobs}
      itemKey={(job) => job.id}
      empty={<EmptyState title={t("admin.imports.empty")} />}
      columns={[
        {
          header: t("admin.imports.colImport"),
          cell: (job) => (
            <>
              <Link to={`${PATH}/${job.id}`}>
                <strong>#{job.id}</strong> {job.fileName ?? sourceLabel(job.source)}
              </Link>
              <span className="admin-user-cell__meta">
                {t("admin.imports.byline", {
                  name: job.createdByName ?? t("admin.imports.deletedAccount"),
                  at: formatDateTime(job.createdAt),
                })}
              </span>
            </>
          ),
        },
        { header: t("admin.imports.colRows"), cell: (job) => job.total },
        {
          header: t("admin.imports.colResult"),
          cell: (job) =>
            t("admin.imports.result", {
              imported: job.counts.imported,
              exists: job.counts.exists,
              skipped: job.counts.not_item + job.counts.duplicate,
              failed: job.counts.failed,
            }),
        },
        {
          header: t("admin.blogPost.status"),
          cell: (job) =>
            job.status === "done" ? (
              <span className="admin-badge admin-badge--success">{t("admin.imports.done")}</span>
            ) : (
              <span className="admin-badge admin-badge--warning">
                {t("admin.imports.running", { done: job.total - job.counts.pending, total: job.total })}
              </span>
            ),
        },
      ]}
      paging={{ currentPage: page, totalPages, searchParams, label: t("admin.imports.pages") }}
    />
  );
}

export function ErrorBoundary() {
  const { t } = useI18n();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.imports.loadFailed")} />;
}
