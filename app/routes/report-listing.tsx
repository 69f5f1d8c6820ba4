import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { ApiError, nullIfNotFound } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import { safeRedirect } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { LISTING_MESSAGES as L, listingReportSchema, PASTE_MESSAGES } from "~/schemas/marketplace";
import { productPath } from "~/services/catalogue/common.server";
import { getProduct } from "~/services/catalogue/products.server";
import { reportDeadLink } from "~/services/listing-watch.server";
import { idOf } from "~/lib/ids";

/** Only the product page's form posts here; a visit goes home. */
export function loader() {
  return redirect("/");
}

/** A shopper's (or visitor's) report that an external listing is dead; rate limited. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const fallback = safeRedirect(formData.get("returnTo"), "/");
  const id = idOf(formData.get("productId"));
  if (id === null) return redirectWithToast(fallback, { type: "error", message: L.reportFailed });
  const product = await nullIfNotFound(getProduct(id));
  if (!product || !product.isExternal) return redirectWithToast(fallback, { type: "error", message: L.reportFailed });
  const back = productPath(product);
  const parsed = listingReportSchema.safeParse({ note: formData.get("note") ?? undefined });
  if (!parsed.success) return redirectWithToast(back, { type: "error", message: parsed.error.issues[0]?.message ?? L.reportFailed });
  const user = await getPageUser(request);
  try {
    await reportDeadLink(product.id, { userId: user?.id ?? null, ip: String(context.clientIp ?? "") }, parsed.data.note ?? null);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429)
      return redirectWithToast(back, { type: "error", message: PASTE_MESSAGES.tooMany });
    throw error;
  }
  return redirectWithToast(back, { message: L.reported });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.product.reportDeadLink", noindex: true });

export default function ReportListing() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
