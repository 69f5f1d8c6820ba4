import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { ErrorPage } from "~/components/ui/error-page";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { stopAlertByToken, stopLinkState } from "~/services/price-alerts.server";
import { useT } from "~/i18n/i18n";

/**
 * /price-alert?token= : the link in a price-drop mail (docs/decisions/048). GET asks, with a
 * button (link scanners and previews open links: the page never stops an alert by itself);
 * POST stops the alert without a login. A bad link is a 400 page that says so.
 */
const tokenOf = (request: Request, form?: FormData) => {
  const fromForm = form?.get("token");
  return typeof fromForm === "string" && fromForm ? fromForm : new URL(request.url).searchParams.get("token");
};

function asPageError(error: unknown): never {
  if (error instanceof ApiError) throw new Response(error.message, { status: error.status, statusText: "Bad Request" });
  throw error;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request) ?? "";
  return { token, ...(await stopLinkState(token).catch(asPageError)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  return { stopped: true, ...(await stopAlertByToken(tokenOf(request, form)).catch(asPageError)) };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.priceAlert.title", noindex: true });

export default function PriceAlertStop() {
  const data = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const t = useT();
  const product = done?.product ?? data.product;
  return (
    <section className="auth-page" aria-labelledby="price-alert-title">
      <div className="card auth-card">
        <h1 id="price-alert-title">{t("shop.priceAlert.title")}</h1>
        {done || !data.active ? (
          <p role="status" className="notice notice--success">
            {t("shop.priceAlert.stopped")}
          </p>
        ) : (
          <Form method="post">
            {product ? <p>{product.name}</p> : null}
            <p>{t("shop.priceAlert.ask")}</p>
            <input type="hidden" name="token" value={data.token} />
            <SubmitButton pendingText={t("common.working")}>{t("shop.priceAlert.button")}</SubmitButton>
          </Form>
        )}
        {product ? (
          <p>
            <PageLink to={product.path}>{t("shop.priceAlert.product")}</PageLink>
          </p>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
