import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { isCurrencyCode } from "~/lib/currency";
import { currencyCookie } from "~/lib/currency.server";
import { safeRedirect } from "~/lib/http";
import { pageMeta } from "~/lib/meta";

/** Only the header's picker posts here; a visit goes home. */
export function loader() {
  return redirect("/");
}

/** Keeps the chosen display currency in a cookie and goes back (an unknown code changes nothing). */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const back = safeRedirect(formData.get("returnTo"), "/");
  const currency = String(formData.get("currency") ?? "").toUpperCase();
  if (!isCurrencyCode(currency)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": currencyCookie(currency) } });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "common.currency", noindex: true });

export default function Currency() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
