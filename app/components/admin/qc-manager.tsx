/**
 * The QC file manager (/admin/qc-manager, docs/product/admin.md 2, 5, 9): products as QC
 * folders, in a folder list beside the chosen folder's photos (upload, select, delete) or a
 * grid of cards (up to 20 thumbnails, then '+N more'); filters, search, page size, and the
 * 'New QC folder' and delete dialogs chosen by the URL.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import type { z } from "zod";
import { AdminList, AdminSearch, AdminSegments } from "~/components/admin/admin-list";
import { AdminDialog } from "~/components/admin/dialog";
import { AdminQcImages, AdminQcUpload, QcDeleteDialogs, type AdminQcImage, type QcImagesActionData } from "~/components/admin/qc-images";
import { EmptyState } from "~/components/ui/empty-state";
import { FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import type { qcAllowed } from "~/controllers/admin-qc.server";
import { useI18n, type Translate } from "~/i18n/i18n";
import { listAddress } from "~/lib/list-address";
import type { qcManagerQuerySchema } from "~/schemas/qc";
import { QC_FILTERS, QC_LIMITS, QC_MESSAGES as M, QC_PAGE_SIZES, type QcFilter } from "~/schemas/qc-rules";

export const QC_MANAGER_PATH = "/admin/qc-manager";
/** Query parameters that only open a dialog. */
export const QC_MANAGER_DIALOG_PARAMS = ["modal", "imageId"];

type QcFolder = {
  id: number;
  name: string;
  isExternal: boolean;
  approved: number;
  pending: number;
  previews: AdminQcImage[];
};

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type QcManagerData = {
  query: z.infer<typeof qcManagerQuerySchema>;
  allowed: ReturnType<typeof qcAllowed>;
  totals: { approved: number; pending: number };
  newFolder: boolean;
  list: { totalItems: number; totalPages: number; currentPage: number; items: QcFolder[] };
  selected: { id: number; name: string; isExternal: boolean; url: string; images: AdminQcImage[] } | null;
  selectedMissing: boolean;
  confirmOne: AdminQcImage | null;
};

/** What the page's forms answer when they do not redirect: the photos' forms, or 'New QC folder' with what is wrong. */
type QcManagerActionData = QcImagesActionData | { intent: "new-folder"; error: string };

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

export function QcManagerPage({ data, actionData }: { data: QcManagerData; actionData?: QcManagerActionData }) {
  const { query, allowed, totals, newFolder, list, selected, selectedMissing, confirmOne } = data;
  const { t, message } = useI18n();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const here = listAddress(QC_MANAGER_PATH, search, QC_MANAGER_DIALOG_PARAMS);
  const withParams = (extra: Record<string, string>, drop: string[] = []) =>
    listAddress(QC_MANAGER_PATH, search, [...QC_MANAGER_DIALOG_PARAMS, ...drop], extra);
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
            action={QC_MANAGER_PATH}
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
      {newFolder || folderError ? <NewQcFolderDialog action={here} closeTo={closeNewFolder} error={folderError} /> : null}

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

/** 'New QC folder': a product's database id or marketplace item id, which opens its folder. */
function NewQcFolderDialog({ action, closeTo, error }: { action: string; closeTo: string; error: string | null }) {
  const { t, message } = useI18n();
  return (
    <AdminDialog id="new-qc-folder" title={t("admin.qcManager.newFolder")} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset>
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
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's one task is this field (eslint.config.js allows it on such pages)
            autoFocus
          />
          <p id="new-folder-help" className="muted">
            {t("admin.qcManager.productIdHelp")}
          </p>
        </div>
        <FormErrors id="new-folder-errors" errors={error ? [message(error)] : []} />
        <div className="form-actions">
          <SubmitButton className="button" pendingText={t("admin.qcManager.opening")}>
            {t("admin.qcManager.openFolder")}
          </SubmitButton>
          <Link to={closeTo} className="button button--secondary" preventScrollReset>
            {t("admin.common.cancel")}
          </Link>
        </div>
      </Form>
    </AdminDialog>
  );
}
