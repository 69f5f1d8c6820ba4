import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError, isRouteErrorResponse } from "@remix-run/react";
import { ProductView, productMeta } from "~/components/storefront/product-view";
import { ErrorPage } from "~/components/ui/error-page";
import { loadItemPage, locateByItem, productPageAction } from "~/controllers/product-page.server";
import { ImportPanel, unknownItemOf } from "~/components/storefront/import-panel";
import { useT } from "~/i18n/i18n";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** /:platform/:itemId: the canonical address of a marketplace product. */
export const loader = ({ request, params }: LoaderFunctionArgs) => loadItemPage(request, params);

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  productPageAction(request, locateByItem(params).locate, String(context.clientIp ?? ""));

/** The loader names the product for the page cache (the server strips it). */
/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

export default function ProductByPlatformItem() {
  return <ProductView data={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => productMeta(matches, data);

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const unknown = isRouteErrorResponse(error) && error.status === 404 ? unknownItemOf(error.data) : null;
  if (unknown) {
    return (
      <section aria-labelledby="unknown-item-title">
        <p className="error-code">404</p>
        <h1 id="unknown-item-title">{t("shop.import.notInCatalogue")}</h1>
        <ImportPanel view={unknown.view} loggedIn={unknown.loggedIn} />
      </section>
    );
  }
  return <ErrorPage error={error} />;
}
