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
import { ADMIN_PRODUCT_PAGE_SIZES, PLATFORM_LABELS } from "~/schemas/catalogue-rules";

type LoaderData = Awaited<ReturnType<typeof productListLoader>>;

/** Query parameters that only open a dialog. */
const PRODUCT_LIST_DIALOG_PARAMS = ["modal", "productId"];

const TEXT = {
  local: {
    title: "Local products",
    intro: "Products created in the back office.",
    empty: "No local products yet.",
    path: "/admin/products",
  },
  external: {
    title: "External products",
    intro: "Products imported from the marketplaces by shoppers and staff.",
    empty: "No external products yet.",
    path: "/admin/external-products",
  },
} as const;

const priceText = (price: number | null) => (price === null ? "—" : `¥${price.toFixed(2)}`);

export function ProductListPage({ data, actionData }: { data: LoaderData; actionData?: ProductListActionData }) {
  const { kind, query, allowed, list, confirmDelete } = data;
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
      title={text.title}
      count={list.totalItems}
      intro={text.intro}
      toolbar={
        <>
          {kind === "local" && allowed.create ? (
            <Link to="/admin/products/new" className="button">
              Add product
            </Link>
          ) : null}
          {allowed.create ? (
            <Link to="/admin/imports" className="button button--secondary">
              Bulk import
            </Link>
          ) : null}
          <Link to={listHref} className="button button--secondary">
            Refresh
          </Link>
        </>
      }
      filters={
        <div className="admin-filters">
          <AdminSearch
            action={text.path}
            id="product-search"
            label="Search products"
            value={query.q}
            placeholder="Name, item id or product id"
            keep={{ listing: external && query.listing !== "all" ? query.listing : null }}
            live
          >
            <label htmlFor="product-page-size" className="visually-hidden">
              Products per page
            </label>
            <select id="product-page-size" name="limit" defaultValue={String(query.limit)}>
              {ADMIN_PRODUCT_PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size} per page
                </option>
              ))}
            </select>
          </AdminSearch>
          {external ? (
            <AdminSegments
              label="Listing status"
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
                  label: value === "all" ? "All listings" : "Unavailable listings",
                };
              })}
            />
          ) : null}
        </div>
      }
      error={error}
      items={list.items}
      itemKey={(product) => product.id}
      empty={<EmptyState title={query.q ? `No products match “${query.q}”.` : text.empty} />}
      selection={
        allowed.delete
          ? {
              action: formAction,
              hidden: { returnTo: listHref },
              itemLabel: (product) => `Select ${product.name}`,
              bar: (
                <SubmitButton name="intent" value="bulk-confirm" className="button button--danger button--small" pendingText="…">
                  Delete selected
                </SubmitButton>
              ),
            }
          : null
      }
      columns={[
        {
          header: "Product",
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
                  {product.itemId ? ` · ${product.platform ? PLATFORM_LABELS[product.platform] : ""} ${product.itemId}` : ""}
                  {product.showInListing ? "" : " · not listed"}
                </span>
              </div>
            </div>
          ),
        },
        { header: "Price", cell: (product) => priceText(product.priceCny) },
        { header: "Category", cell: (product) => product.categoryName ?? "—" },
        external
          ? { header: "Shop", cell: (product) => product.shopName ?? "—" }
          : { header: "Platform", cell: (product) => (product.platform ? PLATFORM_LABELS[product.platform] : "—") },
        { header: "Views", cell: (product) => product.viewCount },
        { header: "QC", cell: (product) => product.qcCount },
        external && {
          header: "Listing",
          cell: (product) => (
            <>
              {product.listing?.status === "unavailable" ? (
                <span className="admin-badge admin-badge--warning">Unavailable since {formatDate(product.listing.since)}</span>
              ) : product.listing?.checkedAt ? (
                <span className="muted">Checked {formatDate(product.listing.checkedAt)}</span>
              ) : (
                <span className="muted">Not checked yet</span>
              )}
              {product.listing?.reports ? (
                <span className="admin-badge admin-badge--count">
                  {product.listing.reports} report{product.listing.reports === 1 ? "" : "s"}
                </span>
              ) : null}
            </>
          ),
        },
        { header: "Added", cell: (product) => formatDate(product.createdAt) },
      ]}
      actions={(product) => (
        <>
          <a href={product.url} target="_blank" rel="noreferrer" aria-label={`View ${product.name} on the site`}>
            View
          </a>
          {allowed.edit ? (
            <Link to={`/admin/products/${product.id}/edit`} aria-label={`Edit ${product.name}`}>
              Edit
            </Link>
          ) : null}
          {allowed.qc ? (
            <Link to={`/admin/products/${product.id}/qc`} aria-label={`QC photos of ${product.name}`}>
              QC
            </Link>
          ) : null}
          {allowed.delete ? <DeleteLink to={dialogHref(product.id)} name={product.name} /> : null}
        </>
      )}
      paging={{ currentPage: list.currentPage, totalPages: list.totalPages, searchParams: listParams, label: "Product pages" }}
    >
      {confirmDelete ? (
        <AdminConfirmDialog
          id="delete-product"
          title="Delete product"
          closeTo={listHref}
          action={formAction}
          intent="delete"
          fields={{ productId: confirmDelete.id, returnTo: listHref }}
          submitLabel="Delete product"
        >
          <p>
            Delete <strong>{confirmDelete.name}</strong>? Its SKUs go with it. This cannot be undone.
          </p>
        </AdminConfirmDialog>
      ) : null}

      {confirm ? (
        <AdminConfirmDialog
          id="bulk-delete"
          title={`Delete ${confirm.ids.length} product${confirm.ids.length === 1 ? "" : "s"}?`}
          closeTo={listHref}
          action={formAction}
          intent="bulk-delete"
          fields={{ returnTo: listHref, ids: confirm.ids }}
          submitLabel={`Delete ${confirm.ids.length} product${confirm.ids.length === 1 ? "" : "s"}`}
        >
          <ul className="admin-help">
            {confirm.names.map((name, index) => (
              <li key={confirm.ids[index]}>{name}</li>
            ))}
          </ul>
          {confirm.missing > 0 ? <p className="muted">{confirm.missing} of the selected products no longer exist.</p> : null}
          <p>This cannot be undone.</p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}
