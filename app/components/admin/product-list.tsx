/**
 * The two back-office product lists (local and external; app/controllers/admin-product-list.server.ts).
 * Without JavaScript: a search form with a page-size select and a button, checkboxes and
 * a "Delete selected" button that leads to a confirmation step. With JavaScript: the
 * search runs 300 ms after typing stops, the page size applies at once, and a
 * select-all box appears.
 */
import { Form, Link, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { AdminDialog } from "~/components/admin/dialog";
import { useSelectAll } from "~/components/admin/select-all";
import { formatDate } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { SubmitButton } from "~/components/ui/submit-button";
import type { productListLoader, ProductListActionData } from "~/controllers/admin-product-list.server";
import { listAddress, listParams as listParamsOf } from "~/lib/list-address";
import { ADMIN_PRODUCT_PAGE_SIZES, PLATFORM_LABELS } from "~/schemas/catalogue-rules";

type LoaderData = Awaited<ReturnType<typeof productListLoader>>;

const SEARCH_DEBOUNCE_MS = 300;
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

  // JavaScript only: debounced search, page size at once, select-all
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const submit = useSubmit();
  const searchForm = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const navigation = useNavigation();
  const navigating = useRef(false);
  navigating.current = navigation.state !== "idle";
  const searchSoon = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // a click elsewhere (a row's Edit link, the Search button) since the typing wins
      if (navigating.current || !searchForm.current) return;
      submit(searchForm.current, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
  };
  const { form: bulkForm, selectAll } = useSelectAll<HTMLFormElement>();

  const error = actionData && "error" in actionData ? actionData.error : null;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : null;

  return (
    <div className="admin-page">
      <header className="admin-page__header admin-page__header--row">
        <div>
          <h1>
            {text.title} <span className="admin-badge admin-badge--count">{list.totalItems}</span>
          </h1>
          <p className="muted">{text.intro}</p>
        </div>
        <div className="admin-toolbar">
          {kind === "local" && allowed.create ? (
            <Link to="/admin/products/new" className="button">
              Add product
            </Link>
          ) : null}
          <Link to={listHref} className="button button--secondary">
            Refresh
          </Link>
        </div>
      </header>

      <div className="admin-filters">
        <Form
          method="get"
          action={text.path}
          role="search"
          className="site-search admin-search"
          ref={searchForm}
          onSubmit={() => clearTimeout(timer.current)}
        >
          <label htmlFor="product-search" className="visually-hidden">
            Search products
          </label>
          <input
            id="product-search"
            type="search"
            name="q"
            defaultValue={query.q}
            placeholder="Name, item id or product id"
            onChange={hydrated ? searchSoon : undefined}
          />
          <label htmlFor="product-page-size" className="visually-hidden">
            Products per page
          </label>
          <select
            id="product-page-size"
            name="limit"
            defaultValue={String(query.limit)}
            onChange={hydrated ? (event) => submit(event.currentTarget.form, { replace: true }) : undefined}
          >
            {ADMIN_PRODUCT_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size} per page
              </option>
            ))}
          </select>
          {kind === "external" && query.listing !== "all" ? <input type="hidden" name="listing" value={query.listing} /> : null}
          <button type="submit">Search</button>
        </Form>
        {kind === "external" ? (
          <nav className="admin-segments" aria-label="Listing status">
            {(["all", "unavailable"] as const).map((value) => {
              const params = new URLSearchParams(listParams);
              params.delete("page");
              if (value === "all") params.delete("listing");
              else params.set("listing", value);
              const query = params.toString();
              return (
                <Link
                  key={value}
                  to={query ? `${text.path}?${query}` : text.path}
                  aria-current={data.query.listing === value ? "page" : undefined}
                >
                  {value === "all" ? "All listings" : "Unavailable listings"}
                </Link>
              );
            })}
          </nav>
        ) : null}
      </div>

      {error ? (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      ) : null}

      {list.items.length === 0 ? (
        <EmptyState title={query.q ? `No products match “${query.q}”.` : text.empty} />
      ) : (
        <Form method="post" action={formAction} ref={bulkForm} preventScrollReset>
          <input type="hidden" name="returnTo" value={listHref} />
          {allowed.delete ? (
            <div className="admin-bulk-bar">
              {selectAll}
              <SubmitButton name="intent" value="bulk-confirm" className="button button--danger button--small" pendingText="…">
                Delete selected
              </SubmitButton>
            </div>
          ) : null}
          <table className="admin-table">
            <thead>
              <tr>
                {allowed.delete ? (
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                ) : null}
                <th scope="col">Product</th>
                <th scope="col">Price</th>
                <th scope="col">Category</th>
                <th scope="col">{kind === "external" ? "Shop" : "Platform"}</th>
                <th scope="col">Views</th>
                <th scope="col">QC</th>
                {kind === "external" ? <th scope="col">Listing</th> : null}
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((product) => (
                <tr key={product.id}>
                  {allowed.delete ? (
                    <td data-label="Select">
                      <input type="checkbox" name="ids" value={product.id} aria-label={`Select ${product.name}`} />
                    </td>
                  ) : null}
                  <td data-label="Product">
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
                  </td>
                  <td data-label="Price">{priceText(product.priceCny)}</td>
                  <td data-label="Category">{product.categoryName ?? "—"}</td>
                  <td data-label={kind === "external" ? "Shop" : "Platform"}>
                    {kind === "external" ? (product.shopName ?? "—") : product.platform ? PLATFORM_LABELS[product.platform] : "—"}
                  </td>
                  <td data-label="Views">{product.viewCount}</td>
                  <td data-label="QC">{product.qcCount}</td>
                  {kind === "external" ? (
                    <td data-label="Listing">
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
                    </td>
                  ) : null}
                  <td data-label="Added">{formatDate(product.createdAt)}</td>
                  <td data-label="Actions">
                    <div className="admin-row-actions">
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
                      {allowed.delete ? (
                        <Link
                          to={dialogHref(product.id)}
                          className="admin-link--danger"
                          aria-label={`Delete ${product.name}`}
                          preventScrollReset
                        >
                          Delete
                        </Link>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Form>
      )}

      <Pagination currentPage={list.currentPage} totalPages={list.totalPages} searchParams={listParams} label="Product pages" />

      {confirmDelete ? (
        <AdminDialog id="delete-product" title="Delete product" closeTo={listHref}>
          <ConfirmForm
            action={formAction}
            intent="delete"
            fields={{ productId: confirmDelete.id, returnTo: listHref }}
            submitLabel="Delete product"
            cancelTo={listHref}
          >
            <p>
              Delete <strong>{confirmDelete.name}</strong>? Its SKUs go with it. This cannot be undone.
            </p>
          </ConfirmForm>
        </AdminDialog>
      ) : null}

      {confirm ? (
        <AdminDialog
          id="bulk-delete"
          title={`Delete ${confirm.ids.length} product${confirm.ids.length === 1 ? "" : "s"}?`}
          closeTo={listHref}
        >
          <ConfirmForm
            action={formAction}
            intent="bulk-delete"
            fields={{ returnTo: listHref, ids: confirm.ids }}
            submitLabel={`Delete ${confirm.ids.length} product${confirm.ids.length === 1 ? "" : "s"}`}
            cancelTo={listHref}
          >
            <ul className="admin-help">
              {confirm.names.map((name, index) => (
                <li key={confirm.ids[index]}>{name}</li>
              ))}
            </ul>
            {confirm.missing > 0 ? <p className="muted">{confirm.missing} of the selected products no longer exist.</p> : null}
            <p>This cannot be undone.</p>
          </ConfirmForm>
        </AdminDialog>
      ) : null}
    </div>
  );
}
