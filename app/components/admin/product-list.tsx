/**
 * The two back-office product lists (local and external; app/controllers/admin-product-list.server.ts).
 * Without JavaScript: a search form with a page-size select and a button, checkboxes and
 * a "Delete selected" button that leads to a confirmation step. With JavaScript: the
 * search runs 300 ms after typing stops, the page size applies at once, and a
 * select-all box appears.
 */
import { Link, useLocation } from "@remix-run/react";
import { AdminConfirmDialog, AdminList, AdminSearch, AdminSegments, DeleteLink } from "~/components/admin/admin-list";
import { formatDate } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import type { productListLoader, ProductListActionData } from "~/controllers/admin-product-list.server";
import { listAddress, listParams as listParamsOf } from "~/lib/list-address";
import { ADMIN_PRODUCT_PAGE_SIZES } from "~/schemas/catalogue-rules";
import { platformLabel } from "./labels";
import { useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "./emphasis";

type LoaderData = Awaited<ReturnType<typeof productListLoader>>;

/** Query parameters that only open a dialog. */
const PRODUCT_LIST_DIALOG_PARAMS = ["modal", "productId"];

const TEXT = {
  local: { path: "/admin/products" },
  external: { path: "/admin/external-products" },
} as const;

const priceText = (price: number | null) => (price === null ? "—" : `¥${price.toFixed(2)}`);

export function ProductListPage({ data, actionData }: { data: LoaderData; actionData?: ProductListActionData }) {
  const { kind, query, allowed, list, confirmDelete } = data;
  const t = useT();
  const text = TEXT[kind];
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const listParams = listParamsOf(search, PRODUCT_LIST_DIALOG_PARAMS);
  const listHref = listAddress(text.path, search, PRODUCT_LIST_DIALOG_PARAMS);
  const dialogHref = (productId: number) =>
    listAddress(text.path, search, PRODUCT_LIST_DIALOG_PARAMS, { modal: "delete", productId: String(productId) });
  // posts go to the list's own address (its search and page kept), so the page after them is the same list
  const actionParams = new URLSearchParams(listParams);
  if (kind === "local") actionParams.set("index", "");
  const formAction = actionParams.toString() ? `${text.path}?${actionParams}` : text.path;

  const error = actionData && "error" in actionData ? actionData.error : null;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : null;
  const external = kind === "external";

  return (
    <AdminList
      title={kind === "local" ? t("admin.products.localTitle") : t("admin.products.externalTitle")}
      count={list.totalItems}
      intro={kind === "local" ? t("admin.products.localIntro") : t("admin.products.externalIntro")}
      toolbar={
        <>
          {kind === "local" && allowed.create ? (
            <Link to="/admin/products/new" className="button">
              {t("admin.products.add")}
            </Link>
          ) : null}
          {allowed.create ? (
            <Link to="/admin/imports" className="button button--secondary">
              {t("admin.products.bulkImport")}
            </Link>
          ) : null}
          <Link to={listHref} className="button button--secondary">
            {t("admin.common.refresh")}
          </Link>
        </>
      }
      filters={
        <div className="admin-filters">
          <AdminSearch
            action={text.path}
            id="product-search"
            label={t("admin.products.searchLabel")}
            value={query.q}
            placeholder={t("admin.products.searchPlaceholder")}
            keep={{ listing: external && query.listing !== "all" ? query.listing : null }}
            live
          >
            <label htmlFor="product-page-size" className="visually-hidden">
              {t("admin.products.perPageLabel")}
            </label>
            <select id="product-page-size" name="limit" defaultValue={String(query.limit)}>
              {ADMIN_PRODUCT_PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {t("admin.common.perPage", { size })}
                </option>
              ))}
            </select>
          </AdminSearch>
          {external ? (
            <AdminSegments
              label={t("admin.products.listingStatus")}
              segments={(["all", "unavailable"] as const).map((value) => {
                const params = new URLSearchParams(listParams);
                params.delete("page");
                if (value === "all") params.delete("listing");
                else params.set("listing", value);
                const query = params.toString();
                return {
                  key: value,
                  href: query ? `${text.path}?${query}` : text.path,
                  current: data.query.listing === value,
                  label: value === "all" ? t("admin.products.allListings") : t("admin.products.unavailableListings"),
                };
              })}
            />
          ) : null}
        </div>
      }
      error={error}
      items={list.items}
      itemKey={(product) => product.id}
      empty={
        <EmptyState
          title={
            query.q
              ? t("admin.products.noMatch", { query: query.q })
              : kind === "local"
                ? t("admin.products.localEmpty")
                : t("admin.products.externalEmpty")
          }
        />
      }
      selection={
        allowed.delete
          ? {
              action: formAction,
              hidden: { returnTo: listHref },
              itemLabel: (product) => t("admin.common.selectName", { name: product.name }),
              bar: (
                <SubmitButton name="intent" value="bulk-confirm" className="button button--danger button--small" pendingText="…">
                  {t("admin.common.deleteSelected")}
                </SubmitButton>
              ),
            }
          : null
      }
      columns={[
        {
          header: t("admin.products.colProduct"),
          cell: (product) => (
            <div className="admin-user-cell">
              {product.thumbnail ? (
                <img src={product.thumbnail} alt="" width={44} height={44} className="admin-thumb" loading="lazy" />
              ) : (
                <span className="admin-thumb admin-thumb--empty" aria-hidden="true" />
              )}
              <div>
                <strong>{product.name}</strong>
                <span className="admin-user-cell__meta">
                  ID {product.id}
                  {product.itemId ? ` · ${product.platform ? platformLabel(t, product.platform) : ""} ${product.itemId}` : ""}
                  {product.showInListing ? "" : ` · ${t("admin.products.notListed")}`}
                </span>
              </div>
            </div>
          ),
        },
        { header: t("admin.products.colPrice"), cell: (product) => priceText(product.priceCny) },
        { header: t("admin.products.colCategory"), cell: (product) => product.categoryName ?? "—" },
        external
          ? { header: t("admin.products.colShop"), cell: (product) => product.shopName ?? "—" }
          : { header: t("admin.products.colPlatform"), cell: (product) => (product.platform ? platformLabel(t, product.platform) : "—") },
        { header: t("admin.products.colViews"), cell: (product) => product.viewCount },
        { header: t("admin.products.colQc"), cell: (product) => product.qcCount },
        external && {
          header: t("admin.products.colListing"),
          cell: (product) => (
            <>
              {product.listing?.status === "unavailable" ? (
                <span className="admin-badge admin-badge--warning">
                  {t("admin.products.unavailableSince", { date: formatDate(product.listing.since) })}
                </span>
              ) : product.listing?.checkedAt ? (
                <span className="muted">{t("admin.products.checked", { date: formatDate(product.listing.checkedAt) })}</span>
              ) : (
                <span className="muted">{t("admin.products.notChecked")}</span>
              )}
              {product.listing?.reports ? (
                <span className="admin-badge admin-badge--count">{t("admin.products.reports", { count: product.listing.reports })}</span>
              ) : null}
            </>
          ),
        },
        { header: t("admin.products.colAdded"), cell: (product) => formatDate(product.createdAt) },
      ]}
      actions={(product) => (
        <>
          <a href={product.url} target="_blank" rel="noreferrer" aria-label={t("admin.products.viewOnSite", { name: product.name })}>
            {t("admin.common.view")}
          </a>
          {allowed.edit ? (
            <Link to={`/admin/products/${product.id}/edit`} aria-label={t("admin.common.editName", { name: product.name })}>
              {t("admin.common.edit")}
            </Link>
          ) : null}
          {allowed.qc ? (
            <Link to={`/admin/products/${product.id}/qc`} aria-label={t("admin.products.qcOf", { name: product.name })}>
              {t("admin.products.qc")}
            </Link>
          ) : null}
          {allowed.delete ? <DeleteLink to={dialogHref(product.id)} name={product.name} /> : null}
        </>
      )}
      paging={{ currentPage: list.currentPage, totalPages: list.totalPages, searchParams: listParams, label: t("admin.products.pages") }}
    >
      {confirmDelete ? (
        <AdminConfirmDialog
          id="delete-product"
          title={t("admin.products.deleteTitle")}
          closeTo={listHref}
          action={formAction}
          intent="delete"
          fields={{ productId: confirmDelete.id, returnTo: listHref }}
          submitLabel={t("admin.products.deleteTitle")}
        >
          <p>
            <Emphasis text={t("admin.products.deleteConfirm", { name: MARK })}>{confirmDelete.name}</Emphasis>
          </p>
        </AdminConfirmDialog>
      ) : null}

      {confirm ? (
        <AdminConfirmDialog
          id="bulk-delete"
          title={t("admin.products.bulkDeleteTitle", { count: confirm.ids.length })}
          closeTo={listHref}
          action={formAction}
          intent="bulk-delete"
          fields={{ returnTo: listHref, ids: confirm.ids }}
          submitLabel={t("admin.products.bulkDeleteSubmit", { count: confirm.ids.length })}
        >
          <ul className="admin-help">
            {confirm.names.map((name, index) => (
              <li key={confirm.ids[index]}>{name}</li>
            ))}
          </ul>
          {confirm.missing > 0 ? <p className="muted">{t("admin.products.missing", { count: confirm.missing })}</p> : null}
          <p>{t("admin.common.cannotUndo")}</p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}
