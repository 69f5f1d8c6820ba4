import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { ProductListPage } from "~/components/admin/product-list";
import { productListAction, productListLoader } from "~/controllers/admin-product-list.server";
import { pageMeta } from "~/lib/meta";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";

/** /admin/products: the local product list. */
export const loader = ({ request }: LoaderFunctionArgs) => productListLoader(request, "local");
export const action = ({ request }: ActionFunctionArgs) => productListAction(request, "local");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.products.localPageTitle", noindex: true });

export default function AdminLocalProducts() {
  return <ProductListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.productsLoadFailed} />;
}
