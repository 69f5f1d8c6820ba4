import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError, isRouteErrorResponse } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { notFound, loadProductPage, productPageAction, type LocateProduct } from "~/controllers/product-page.server";
import { PLATFORMS, type Platform } from "~/schemas/catalogue-rules";
import { getProductByItem } from "~/services/catalogue.server";
import { ImportPanel, unknownItemOf } from "~/components/storefront/import-panel";
import { unknownItemPage } from "~/controllers/pasted-links.server";

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
  try {
    return await loadProductPage(request, target.locate, target.path);
  } catch (error) {
    // an item id not in the catalogue: still a 404, but with where the item can be seen
    // and bought, and the import offer (docs/marketplace-links.md, "No dead ends")
    if (error instanceof Response && error.status === 404 && /^\d{5,20}$/.test(params.itemId ?? "")) {
      throw await unknownItemPage(request, params.platform as Platform, params.itemId!);
    }
    throw error;
  }
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
  const error = useRouteError();
  const unknown = isRouteErrorResponse(error) && error.status === 404 ? unknownItemOf(error.data) : null;
  if (unknown) {
    return (
      <section aria-labelledby="unknown-item-title">
        <p className="error-code">404</p>
        <h1 id="unknown-item-title">Not in the catalogue yet</h1>
        <ImportPanel view={unknown.view} loggedIn={unknown.loggedIn} />
      </section>
    );
  }
  return <ErrorPage error={error} />;
}
