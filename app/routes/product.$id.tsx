import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { idParam, loadProductPage, productPageAction, type LocateProduct } from "~/controllers/product-page.server";
import { getProduct } from "~/services/catalogue.server";

/** /product/:id: a product by its id (301 to /{platform}/{itemId} when it has both). */
function locate(params: { id?: string }): LocateProduct {
  const id = idParam(params.id);
  return ({ countView }) => getProduct(id, { countView });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadProductPage(request, locate(params));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return productPageAction(request, locate(params), String(context.clientIp ?? ""));
}

/** The loader names the product for the page cache (the server strips it). */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function ProductById() {
  return <ProductView data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => productMeta(matches, data);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
