import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { loadSettings, toSiteInfo } from "~/services/site-settings.server";
import { resubscribeByToken, unsubscribeByToken, unsubscribeState } from "~/services/unsubscribe.server";
import { useI18n, useT } from "~/i18n/i18n";

/**
 * /unsubscribe?token= (docs/runtime.md "E-mail marketing", RFC 8058). GET shows what the link
 * would do and a button: it never unsubscribes by itself (link scanners and previews
 * open links). POST unsubscribes without a login: the page's form, or a mail provider's
 * one-click request (body `List-Unsubscribe=One-Click`); the answer is this page, never
 * a redirect. The same page offers to subscribe again.
 */
const tokenOf = (request: Request, form?: FormData) => {
  const fromForm = form?.get("token");
  return typeof fromForm === "string" && fromForm ? fromForm : new URL(request.url).searchParams.get("token");
};

/** A bad or stale link: a 400/404 page that says so in words. */
function asPageError(error: unknown): never {
  if (error instanceof ApiError)
    throw new Response(error.message, { status: error.status, statusText: error.status === 404 ? "Not Found" : "Bad Request" });
  throw error;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  const [state, settings] = await Promise.all([unsubscribeState(token).catch(asPageError), loadSettings()]);
  return { token: token ?? "", siteName: toSiteInfo(settings).site_name, ...state };
}

/**
 * The POST's form, or an empty one: a one-click request may come without a body or with
 * one that is not a form (RFC 8058 asks for the form body, but the token in the address
 * is what counts, docs/runtime.md: "POST /unsubscribe?token= (also with the one-click body)").
 */
async function formOf(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type.trim())) return new FormData();
  return request.formData().catch(() => new FormData());
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await formOf(request);
  const token = tokenOf(request, form);
  if (form.get("intent") === "resubscribe") {
    await resubscribeByToken(token).catch(asPageError);
    return { done: "resubscribed" as const };
  }
  // the page's button, or RFC 8058's `List-Unsubscribe=One-Click` from a mail provider
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  await unsubscribeByToken(token, oneClick ? "one-click" : "link").catch(asPageError);
  return { done: "unsubscribed" as const };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.unsubscribe.title", noindex: true });

export default function Unsubscribe() {
  const { token, siteName, email, unsubscribed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <section className="auth-page" aria-labelledby="unsubscribe-title">
      <div className="card auth-card">
        <h1 id="unsubscribe-title">{t("shop.unsubscribe.heading", { site: siteName })}</h1>
        {actionData?.done === "unsubscribed" ? (
          <p role="status" className="notice notice--success">
            {`${t("shop.unsubscribe.doneBefore")} `}
            <strong>{email}</strong>
            {` ${t("shop.unsubscribe.doneAfter", { site: siteName })}`}
          </p>
        ) : actionData?.done === "resubscribed" ? (
          <p role="status" className="notice notice--success">
            {`${t("shop.unsubscribe.backBefore")} `}
            <strong>{email}</strong>
            {` ${t("shop.unsubscribe.backAfter")}`}
          </p>
        ) : null}
        {unsubscribed ? (
          <>
            {actionData ? null : (
              <p>
                <strong>{email}</strong>
                {` ${t("shop.unsubscribe.isUnsubscribed")}`}
              </p>
            )}
            <Form method="post" replace>
              <input type="hidden" name="token" value={token} />
              <p className="muted">{t("shop.unsubscribe.mistake")}</p>
              <SubmitButton name="intent" value="resubscribe" className="button button--secondary" pendingText={t("shop.auth.saving")}>
                {t("shop.unsubscribe.again")}
              </SubmitButton>
            </Form>
          </>
        ) : (
          <Form method="post" replace>
            <input type="hidden" name="token" value={token} />
            <p>
              {`${t("shop.unsubscribe.askBefore")} `}
              <strong>{email}</strong>
              {t("shop.unsubscribe.askAfter")}
            </p>
            <SubmitButton name="intent" value="unsubscribe" className="button" pendingText={t("shop.unsubscribe.unsubscribing")}>
              {t("shop.unsubscribe.submit")}
            </SubmitButton>
          </Form>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t, message } = useI18n();
  if (isRouteErrorResponse(error) && (error.status === 400 || error.status === 404)) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">{error.status}</p>
        <h1 id="error-title">{t("shop.unsubscribe.broken")}</h1>
        <p>{typeof error.data === "string" ? message(error.data) : error.statusText}</p>
        <p>
          <a className="button" href="/login?redirectTo=/profile">
            {t("common.error.logIn")}
          </a>
        </p>
      </section>
    );
  }
  return <ErrorPage error={error} />;
}
