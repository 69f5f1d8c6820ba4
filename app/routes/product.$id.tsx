import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { loadProductPage, locateById, productPageAction } from "~/controllers/product-page.server";

/** /product/:id: a product by its id (301 to /{platform}/{itemId} when it has both). */
export const loader = ({ request, params }: LoaderFunctionArgs) => loadProductPage(request, locateById(params).locate);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  productPageAction(request, locateById(params).locate, String(context.clientIp ?? ""));

/** The loader names the product for the page cache (the server strips it). */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function ProductById() {
  return <ProductView data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => productMeta(matches, data);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
