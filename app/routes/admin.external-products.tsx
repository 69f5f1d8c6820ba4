import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { ProductListPage } from "~/components/admin/product-list";
import { productListAction, productListLoader } from "~/controllers/admin-product-list.server";
import { pageMeta } from "~/lib/meta";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";

/** /admin/external-products: products imported from the marketplaces. */
export const loader = ({ request }: LoaderFunctionArgs) => productListLoader(request, "external");
export const action = ({ request }: ActionFunctionArgs) => productListAction(request, "external");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.products.externalPageTitle", noindex: true });

export default function AdminExternalProducts() {
  return <ProductListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.externalLoadFailed} />;
}
