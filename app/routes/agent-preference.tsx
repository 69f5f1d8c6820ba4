import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { agentCookie } from "~/lib/agent-preference.server";
import { safeRedirect } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { enabledAgent } from "~/services/agents.server";
import { translatorOf } from "~/i18n/i18n.server";

/** Only the product page's form posts here; a visit goes home. */
export function loader() {
  return redirect("/");
}

/**
 * Keeps the shopper's preferred shopping agent in a cookie (its links come first on
 * product pages) and goes back. An empty choice clears it; an unknown or disabled agent
 * changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const back = safeRedirect(formData.get("returnTo"), "/");
  const raw = String(formData.get("agent") ?? "");
  if (raw === "") return redirect(back, { headers: { "Set-Cookie": agentCookie(null) } });
  const agent = /^\d{1,9}$/.test(raw) ? await enabledAgent(Number(raw)) : null;
  if (!agent) return redirect(back);
  return redirectWithToast(
    back,
    { message: translatorOf(request)("shop.agent.preferred", { name: agent.name }) },
    { headers: { "Set-Cookie": agentCookie(agent.id) } },
  );
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.agent.title", noindex: true });

export default function AgentPreference() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
