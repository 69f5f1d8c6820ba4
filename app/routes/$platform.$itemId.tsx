import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { notFound, loadProductPage, productPageAction, type LocateProduct } from "~/controllers/product-page.server";
import { PLATFORMS, type Platform } from "~/schemas/catalogue-rules";
import { getProductByItem } from "~/services/catalogue.server";

/** /:platform/:itemId: the canonical address of a marketplace product. */
function locate(params: { platform?: string; itemId?: string }): { locate: LocateProduct; path: string } {
  const platform = params.platform as Platform;
  const itemId = params.itemId ?? "";
  if (!PLATFORMS.includes(platform) || !/^[A-Za-z0-9_-]{1,40}$/.test(itemId)) throw notFound();
  return {
    locate: ({ countView }) => getProductByItem(itemId, platform, { countView }),
    path: `/${platform}/${encodeURIComponent(itemId)}`,
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const target = locate(params);
  return loadProductPage(request, target.locate, target.path);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return productPageAction(request, locate(params).locate, String(context.clientIp ?? ""));
}

/** The loader names the product for the page cache (the server strips it). */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function ProductByPlatformItem() {
  return <ProductView data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => productMeta(matches, data);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
