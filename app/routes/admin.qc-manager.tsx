import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminDialog } from "~/components/admin/dialog";
import { AdminQcImages, AdminQcUpload, QcDeleteDialogs, type QcImagesActionData } from "~/components/admin/qc-images";
import { EmptyState } from "~/components/ui/empty-state";
import { FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { adminImagesOf, qcAllowed, qcImagesAction, requireQcViewer, toAdminQcImage } from "~/controllers/admin-qc.server";
import { ApiError } from "~/lib/api.server";
import { listAddress } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { qcManagerQuerySchema } from "~/schemas/qc";
import { QC_FILTERS, QC_LIMITS, QC_MESSAGES as M, QC_PAGE_SIZES } from "~/schemas/qc-rules";
import { productPath } from "~/services/catalogue/common.server";
import { findFolderProduct, productForQc, qcFolders, qcTotals } from "~/services/qc.server";
import { AdminList, AdminSearch, AdminSegments } from "~/components/admin/admin-list";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n, type Translate } from "~/i18n/i18n";
import type { QcFilter } from "~/schemas/qc-rules";

function filterLabel(t: Translate, filter: QcFilter): string {
  switch (filter) {
    case "all":
      return t("admin.qcManager.filterAll");
    case "withQC":
      return t("admin.qcManager.filterWithQc");
    case "withoutQC":
      return t("admin.qcManager.filterWithoutQc");
    case "local":
      return t("admin.qcManager.filterLocal");
    case "external":
      return t("admin.qcManager.filterExternal");
  }
}

const PATH = "/admin/qc-manager";
/** Query parameters that only open a dialog. */
const DIALOG_PARAMS = ["modal", "imageId"];

const selectedId = (params: URLSearchParams): number | null => {
  const value = params.get("product");
  return value && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
};

/**
 * /admin/qc-manager (docs/product/admin.md 2, 5, 9): products as QC folders, in a folder list or a
 * grid of cards (up to 20 thumbnails, then '+N more'); filters, search by id or name, 10,
 * 20 or 50 a page; the chosen folder's photos with upload, select and delete; 'New QC
 * folder' by id.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { access } = await requireQcViewer(request);
  const url = new URL(request.url);
  const query = qcManagerQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [page, totals] = await Promise.all([qcFolders(query), qcTotals()]);
  const allowed = qcAllowed(access);

  let selected: { id: number; name: string; isExternal: boolean; url: string; images: ReturnType<typeof toAdminQcImage>[] } | null = null;
  let selectedMissing = false;
  const id = selectedId(url.searchParams);
  if (id !== null) {
    const product = await productForQc(id);
    if (product)
      selected = {
        id: product.id,
        name: product.name,
        isExternal: product.isExternal,
        url: productPath(product),
        images: await adminImagesOf(product.id),
      };
    else selectedMissing = true;
  }
  const confirmId = Number(url.searchParams.get("imageId"));
  const confirmOne =
    url.searchParams.get("modal") === "delete" && allowed.delete
      ? (selected?.images.find((image) => image.id === confirmId) ?? null)
      : null;

  return {
    query,
    allowed,
    totals,
    newFolder: url.searchParams.get("modal") === "new-folder",
    list: {
      totalItems: page.totalItems,
      totalPages: page.totalPages,
      currentPage: page.page,
      items: page.items.map((folder) => ({
        id: folder.product.id,
        name: folder.product.name,
        isExternal: folder.product.isExternal,
        approved: folder.approved,
        pending: folder.pending,
        previews: folder.previews.map(toAdminQcImage),
      })),
    },
    selected,
    selectedMissing,
    confirmOne,
  };
}

type NewFolderData = { intent: "new-folder"; error: string };

export async function action({ request, context }: ActionFunctionArgs) {
  // who is asking, before the form is read
  const actor = await requireQcViewer(request);
  const url = new URL(request.url);
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const language = readLanguage(request);
  if (!type.startsWith("multipart/form-data")) {
    const probe = await request.clone().formData();
    if (probe.get("intent") === "new-folder") {
      try {
        const product = await findFolderProduct(String(probe.get("productId") ?? ""));
        return redirectWithToast(listAddress(PATH, url.searchParams, DIALOG_PARAMS, { product: String(product.id) }), {
          message: translatorFor(language)("admin.qcManager.folderToast", { name: product.name }),
        });
      } catch (error) {
        if (error instanceof ApiError && error.status < 500)
          return { intent: "new-folder", error: translateMessage(language, error.message) } satisfies NewFolderData;
        throw error;
      }
    }
  }
  const id = selectedId(url.searchParams);
  if (id === null || !(await productForQc(id))) {
    return redirectWithToast(listAddress(PATH, url.searchParams, [...DIALOG_PARAMS, "product"]), {
      type: "error",
      message: translateMessage(language, M.productNotFoundZh),
    });
  }
  return qcImagesAction(request, actor, {
    productId: id,
    back: listAddress(PATH, url.searchParams, DIALOG_PARAMS),
    clientIp: String(context.clientIp ?? ""),
  });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.qcManager.pageTitle", noindex: true });

export default function QcManagerPage() {
  const { query, allowed, totals, newFolder, list, selected, selectedMissing, confirmOne } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as QcImagesActionData | NewFolderData | undefined;
  const { t, message } = useI18n();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const here = listAddress(PATH, search, DIALOG_PARAMS);
  const withParams = (extra: Record<string, string>, drop: string[] = []) => listAddress(PATH, search, [...DIALOG_PARAMS, ...drop], extra);
  const folderHref = (id: number) => withParams({ product: String(id) });
  const closeNewFolder = here;
  const folderError = actionData && actionData.intent === "new-folder" && "error" in actionData ? actionData.error : null;
  const imagesData = actionData && actionData.intent !== "new-folder" ? (actionData as QcImagesActionData) : undefined;

  const gridView = (items: Readonly<typeof list.items>) => (
    <ul className="admin-qc-cards">
      {items.map((folder) => (
        <li key={folder.id} className="card admin-qc-card">
          <h2 className="admin-qc-card__title">
            <Link to={withParams({ view: "folders", product: String(folder.id) })}>{folder.name}</Link>
          </h2>
          <p className="muted">
            ID {folder.id} · {folder.isExternal ? t("admin.qcManager.external") : t("admin.qcManager.local")} ·{" "}
            {t("admin.qcManager.photos", { count: folder.approved })}
            {folder.pending ? ` · ${t("admin.qcManager.pendingCount", { count: folder.pending })}` : ""}
          </p>
          {folder.previews.length ? (
            <ul className="admin-qc-strip">
              {folder.previews.map((image) => (
                <li key={image.id}>
                  <a href={image.url} target="_blank" rel="noreferrer">
                    <img src={image.thumb} alt="" width={56} height={56} loading="lazy" decoding="async" />
                  </a>
                </li>
              ))}
              {folder.approved > QC_LIMITS.cardThumbnails ? (
                <li className="admin-qc-strip__more">
                  <Link to={withParams({ view: "folders", product: String(folder.id) })}>
                    {t("admin.qcManager.more", { count: folder.approved - QC_LIMITS.cardThumbnails })}
                  </Link>
                </li>
              ) : null}
            </ul>
          ) : (
            <p className="muted">{t("admin.qc.noPhotos")}</p>
          )}
        </li>
      ))}
    </ul>
  );
  const folderView = (items: Readonly<typeof list.items>) => (
    <div className="admin-qc-manager">
      <nav className="admin-qc-folders" aria-label={t("admin.qcManager.folders")}>
        {items.length === 0 ? (
          <p className="muted">
            {query.searchTerm ? t("admin.products.noMatch", { query: query.searchTerm }) : t("admin.qcManager.noProducts")}
          </p>
        ) : (
          <ul>
            {items.map((folder) => (
              <li key={folder.id}>
                <Link to={folderHref(folder.id)} aria-current={selected?.id === folder.id ? "page" : undefined} preventScrollReset>
                  <span className="admin-qc-folders__name">{folder.name}</span>
                  <span className="admin-qc-folders__meta">
                    ID {folder.id}
                    <span className="admin-badge admin-badge--count" title={t("admin.qcManager.approvedPhotos")}>
                      {folder.approved}
                    </span>
                    {folder.pending ? (
                      <span className="admin-badge admin-badge--warning">
                        {t("admin.qcManager.pendingCount", { count: folder.pending })}
                      </span>
                    ) : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <section className="admin-qc-folder card" aria-label={t("admin.qcManager.folder")}>
        {selected ? (
          <>
            <header className="admin-qc-folder__header">
              <h2>{selected.name}</h2>
              <p className="muted">
                ID {selected.id} · {selected.isExternal ? t("admin.qcManager.external") : t("admin.qcManager.local")} ·{" "}
                <a href={selected.url} target="_blank" rel="noreferrer">
                  {t("admin.productForm.viewOnSite")}
                </a>{" "}
                · <Link to={`/admin/products/${selected.id}/edit`}>{t("admin.productForm.editTitle")}</Link>
              </p>
            </header>
            {allowed.upload ? <AdminQcUpload action={here} errors={imagesData && "errors" in imagesData ? imagesData.errors : []} /> : null}
            <AdminQcImages
              images={selected.images}
              canDelete={allowed.delete}
              action={here}
              returnTo={here}
              deleteHref={(imageId) => withParams({ modal: "delete", imageId: String(imageId) })}
              error={imagesData && "error" in imagesData ? imagesData.error : null}
            />
          </>
        ) : (
          <EmptyState title={selectedMissing ? message(M.productNotFoundZh) : t("admin.qcManager.chooseFolder")} />
        )}
      </section>
    </div>
  );

  return (
    <AdminList
      title={t("admin.qcManager.title")}
      intro={
        <>
          {t("admin.qcManager.intro", { count: totals.approved })}
          {totals.pending ? (
            <>
              {t("admin.qcManager.introComma")}{" "}
              <Link to="/admin/qc-review">{t("admin.qcManager.waitingReview", { count: totals.pending })}</Link>
            </>
          ) : null}
          {t("admin.qcManager.introEnd")}
        </>
      }
      toolbar={
        <>
          <Link to={withParams({ modal: "new-folder" })} className="button" preventScrollReset>
            {t("admin.qcManager.newFolder")}
          </Link>
          <Link to={here} className="button button--secondary">
            {t("admin.common.refresh")}
          </Link>
        </>
      }
      filters={
        <div className="admin-filters">
          <AdminSearch
            action={PATH}
            id="qc-search"
            label={t("admin.qcManager.searchLabel")}
            name="searchTerm"
            value={query.searchTerm}
            placeholder={t("admin.qcManager.searchPlaceholder")}
            keep={{ view: query.view, filterType: query.filterType }}
          >
            <label htmlFor="qc-page-size" className="visually-hidden">
              {t("admin.qcManager.perPageLabel")}
            </label>
            <select id="qc-page-size" name="limit" defaultValue={String(query.limit)}>
              {QC_PAGE_SIZES.folders.map((size) => (
                <option key={size} value={size}>
                  {t("admin.common.perPage", { size })}
                </option>
              ))}
            </select>
          </AdminSearch>
          <AdminSegments
            label={t("admin.qcManager.filterLabel")}
            segments={QC_FILTERS.map((filter) => ({
              key: filter,
              href: withParams({ filterType: filter }, ["page"]),
              current: query.filterType === filter,
              label: filterLabel(t, filter),
            }))}
          />
          <AdminSegments
            label={t("admin.qcManager.view")}
            segments={[
              {
                key: "folders",
                href: withParams({ view: "folders" }),
                current: query.view === "folders",
                label: t("admin.qcManager.viewFolders"),
              },
              { key: "grid", href: withParams({ view: "grid" }), current: query.view === "grid", label: t("admin.qcManager.viewGrid") },
            ]}
          />
        </div>
      }
      items={list.items}
      itemKey={(folder) => folder.id}
      // the folders view keeps its two panes when the list is empty: a folder opened by id still shows
      empty={
        query.view === "grid" ? (
          <EmptyState
            title={query.searchTerm ? t("admin.products.noMatch", { query: query.searchTerm }) : t("admin.qcManager.noProducts")}
          />
        ) : (
          folderView([])
        )
      }
      renderItems={query.view === "grid" ? gridView : folderView}
      paging={{
        currentPage: list.currentPage,
        totalPages: list.totalPages,
        searchParams: new URLSearchParams(here.split("?")[1] ?? ""),
        label: t("admin.qcManager.pages"),
      }}
    >
      {newFolder || folderError ? (
        <AdminDialog id="new-qc-folder" title={t("admin.qcManager.newFolder")} closeTo={closeNewFolder}>
          <Form method="post" action={here} preventScrollReset>
            <input type="hidden" name="intent" value="new-folder" />
            <div className="field">
              <label htmlFor="new-folder-id">{t("admin.qcManager.productId")}</label>
              <input
                id="new-folder-id"
                name="productId"
                inputMode="numeric"
                autoComplete="off"
                maxLength={64}
                required
                aria-describedby="new-folder-help new-folder-errors"
                autoFocus
              />
              <p id="new-folder-help" className="muted">
                {t("admin.qcManager.productIdHelp")}
              </p>
            </div>
            <FormErrors id="new-folder-errors" errors={folderError ? [message(folderError)] : []} />
            <div className="form-actions">
              <SubmitButton className="button" pendingText={t("admin.qcManager.opening")}>
                {t("admin.qcManager.openFolder")}
              </SubmitButton>
              <Link to={closeNewFolder} className="button button--secondary" preventScrollReset>
                {t("admin.common.cancel")}
              </Link>
            </div>
          </Form>
        </AdminDialog>
      ) : null}

      {selected ? (
        <QcDeleteDialogs
          action={here}
          closeTo={here}
          confirmOne={confirmOne}
          confirmSelection={imagesData && "confirm" in imagesData ? imagesData.confirm.ids : null}
        />
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.loadProductsFailed} />;
}
