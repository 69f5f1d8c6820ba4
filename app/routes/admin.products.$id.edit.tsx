import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { ProductForm } from "~/components/admin/product-form";
import { productFormAction, productFormLoader, productIdParam } from "~/lib/admin-product-form.server";
import { pageMeta } from "~/lib/meta";

/** /admin/products/:id/edit (product.edit): a non-numeric id is the invalid-id page. */
export const loader = ({ request, params }: LoaderFunctionArgs) => productFormLoader(request, { kind: "edit", id: productIdParam(params.id) });
export const action = ({ request, params }: ActionFunctionArgs) => productFormAction(request, { kind: "edit", id: productIdParam(params.id) });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => pageMeta(matches, { title: `${data?.product?.name ?? "Product"} · Edit product · Admin`, noindex: true });

export default function EditProduct() {
  const { categories, product } = useLoaderData<typeof loader>();
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
      <ProductForm id="edit-product" defaults={product} categories={categories} outcome={outcome} submitLabel="Save product" cancelTo={back} />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The product could not be loaded." />;
}
