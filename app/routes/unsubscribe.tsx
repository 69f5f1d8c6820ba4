import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { loadSettings, toSiteInfo } from "~/services/site-settings.server";
import { resubscribeByToken, unsubscribeByToken, unsubscribeState } from "~/services/unsubscribe.server";

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

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Unsubscribe", noindex: true });

export default function Unsubscribe() {
  const { token, siteName, email, unsubscribed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="auth-page" aria-labelledby="unsubscribe-title">
      <div className="card auth-card">
        <h1 id="unsubscribe-title">E-mail from {siteName}</h1>
        {actionData?.done === "unsubscribed" ? (
          <p role="status" className="notice notice--success">
            You are unsubscribed: <strong>{email}</strong> gets no more campaign e-mail from {siteName}.
          </p>
        ) : actionData?.done === "resubscribed" ? (
          <p role="status" className="notice notice--success">
            Welcome back: <strong>{email}</strong> gets our campaign e-mail again.
          </p>
        ) : null}
        {unsubscribed ? (
          <>
            {actionData ? null : (
              <p>
                <strong>{email}</strong> is unsubscribed from campaign e-mail.
              </p>
            )}
            <Form method="post" replace>
              <input type="hidden" name="token" value={token} />
              <p className="muted">Unsubscribed by mistake?</p>
              <SubmitButton name="intent" value="resubscribe" className="button button--secondary" pendingText="Saving…">
                Subscribe again
              </SubmitButton>
            </Form>
          </>
        ) : (
          <Form method="post" replace>
            <input type="hidden" name="token" value={token} />
            <p>
              Stop campaign e-mail (news, offers) to <strong>{email}</strong>? Messages about your account, such as sign-in codes and
              password resets, still arrive.
            </p>
            <SubmitButton name="intent" value="unsubscribe" className="button" pendingText="Unsubscribing…">
              Unsubscribe
            </SubmitButton>
          </Form>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.status === 400 || error.status === 404)) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">{error.status}</p>
        <h1 id="error-title">This unsubscribe link does not work</h1>
        <p>{typeof error.data === "string" ? error.data : error.statusText}</p>
        <p>
          <a className="button" href="/login?redirectTo=/profile">
            Log in
          </a>
        </p>
      </section>
    );
  }
  return <ErrorPage error={error} />;
}
