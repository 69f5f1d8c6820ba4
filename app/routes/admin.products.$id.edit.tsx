import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDate, formatDateTime } from "~/components/admin/format";
import { ProductForm, ProductImportBox } from "~/components/admin/product-form";
import { productFormAction, productFormLoader, productIdParam } from "~/controllers/admin-product-form.server";
import { pageMeta } from "~/lib/meta";

/** /admin/products/:id/edit (product.edit): a non-numeric id is the invalid-id page. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  productFormLoader(request, { kind: "edit", id: productIdParam(params.id) });
export const action = ({ request, params }: ActionFunctionArgs) =>
  productFormAction(request, { kind: "edit", id: productIdParam(params.id) });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: `${data?.product?.name ?? "Product"} · Edit product · Admin`, noindex: true });

export default function EditProduct() {
  const { categories, product, listing } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  if (!product) return null;
  const back = product.isExternal ? "/admin/external-products" : "/admin/products";
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to={back}>← {product.isExternal ? "External products" : "Local products"}</Link>
        </p>
        <h1>Edit product</h1>
        <p className="muted">
          ID {product.id} ·{" "}
          <a href={product.url} target="_blank" rel="noreferrer">
            View on the site
          </a>
        </p>
      </header>
      {listing ? (
        <section className="card" aria-labelledby="listing-title">
          <h2 id="listing-title">Listing watch</h2>
          <dl className="admin-facts">
            <dt>Status</dt>
            <dd>
              {listing.state?.status === "unavailable"
                ? `Unavailable since ${formatDateTime(listing.state.unavailableSince)}`
                : listing.state?.checkedAt
                  ? "Available"
                  : "Not checked yet"}
            </dd>
            <dt>Last check</dt>
            <dd>{formatDateTime(listing.state?.checkedAt)}</dd>
            {listing.state?.lastError ? (
              <>
                <dt>Last problem</dt>
                <dd>{listing.state.lastError}</dd>
              </>
            ) : null}
            <dt>Prices seen</dt>
            <dd>
              {listing.history.length
                ? listing.history.map((point) => `¥${point.priceCny.toFixed(2)} (${formatDate(point.recordedAt)})`).join(" ← ")
                : "—"}
            </dd>
          </dl>
          <h3>Dead-link reports ({listing.reports.length})</h3>
          {listing.reports.length ? (
            <ul className="admin-help">
              {listing.reports.map((report, index) => (
                <li key={index}>
                  {formatDateTime(report.createdAt)} · {report.username ?? "visitor"}
                  {report.note ? `: ${report.note}` : ""}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No reports.</p>
          )}
        </section>
      ) : null}
      <ProductForm
        id="edit-product"
        defaults={product}
        categories={categories}
        outcome={outcome}
        submitLabel="Save product"
        cancelTo={back}
        importBox={<ProductImportBox outcome={outcome} />}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The product could not be loaded." />;
}
