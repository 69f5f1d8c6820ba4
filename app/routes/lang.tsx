import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { languageCookie } from "~/i18n/i18n.server";
import { asLanguage } from "~/i18n/languages";
import { getEnv } from "~/lib/env.server";
import { safeRedirect } from "~/lib/http";
import { pageMeta } from "~/lib/meta";

/** Only the header's language form posts here; a visit goes home. */
export function loader() {
  return redirect("/");
}

/**
 * Keeps the chosen language in the `lang` cookie and goes back to the page (decision 031).
 * An unknown language changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const back = safeRedirect(formData.get("returnTo"), "/");
  const language = asLanguage(String(formData.get("lang") ?? ""));
  if (!language) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": languageCookie(language, getEnv().PUBLIC_URL.startsWith("https://")) } });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "common.language", noindex: true });

export default function Lang() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
