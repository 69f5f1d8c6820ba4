import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { loadProductPage, locateById, productPageAction } from "~/controllers/product-page.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** /product/:id: a product by its id (301 to /{platform}/{itemId} when it has both). */
export const loader = ({ request, params }: LoaderFunctionArgs) => loadProductPage(request, locateById(params).locate);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  productPageAction(request, locateById(params).locate, String(context.clientIp ?? ""));

/** The loader names the product for the page cache (the server strips it). */
/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

export default function ProductById() {
  return <ProductView data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => productMeta(matches, data);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
