import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ImportPanel, PastedList } from "~/components/storefront/import-panel";
import { ErrorPage } from "~/components/ui/error-page";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import { pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor } from "~/i18n/i18n";
import { canAny } from "~/lib/permissions";
import { getAccess } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { PLATFORMS, type Platform } from "~/schemas/catalogue-rules";
import { PASTE_MESSAGES as P } from "~/schemas/marketplace-rules";
import { productPath } from "~/services/catalogue/common.server";
import { findPasted } from "~/marketplace/find.server";
import { importFailureText, importItem } from "~/marketplace/import.server";
import { limitMarketplaceFetches } from "~/services/rate-limit.server";
import { readPastedText } from "~/controllers/pasted-links.server";
import { useI18n } from "~/i18n/i18n";
import { signInHref } from "~/lib/http";

const MAX_LINK = 2000;

/**
 * /import: the paste box (a marketplace link, an agent's link, share text or an item id).
 * A product already in the catalogue opens at once; otherwise a logged-in shopper can
 * import it (docs/decisions/020-marketplace-links.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const link = (new URL(request.url).searchParams.get("link") ?? "").slice(0, MAX_LINK);
  if (!link.trim()) return { link: "", view: null, views: null, loggedIn: Boolean(await getPageUser(request)) };
  return { link, ...(await readPastedText(request, link, String(context.clientIp ?? ""))) };
}

type ActionData = { error: string; link: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const link = String(formData.get("link") ?? "").slice(0, MAX_LINK);
  // visitors log in first and come back to this link
  const user = await getPageUser(request);
  if (!user) throw redirect(signInHref(`/import?link=${encodeURIComponent(link)}`));
  const actor = { user, access: await getAccess(user) };
  const ip = String(context.clientIp ?? "");
  const limited = !canAny(actor.access, ["product.create", "product.edit"]);
  const fail = (message: string, status = 400) => data({ error: message, link } satisfies ActionData, { status });
  try {
    if (limited) await limitMarketplaceFetches(actor.user.id, ip);
    const outcome = await findPasted(link);
    if (outcome.kind === "found") return redirectWithToast(productPath(outcome.product), { message: P.found, type: "info" });
    if (outcome.kind === "error") return fail(outcome.message);
    let platform: Platform;
    if (outcome.kind === "choose") {
      const chosen = String(formData.get("platform") ?? "") as Platform;
      if (!PLATFORMS.includes(chosen) || !outcome.candidates.includes(chosen)) return fail(P.unsupported);
      platform = chosen;
    } else {
      platform = outcome.platform;
    }
    try {
      const { product } = await importItem(platform, outcome.itemId, actor);
      return redirectWithToast(productPath(product), { message: P.imported(platform) });
    } catch (error) {
      const text = importFailureText(error, platform);
      if (text) return fail(text, error instanceof ApiError ? error.status : 502);
      throw error;
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return fail(P.tooMany, 429);
    throw error;
  }
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    titleKey: "shop.importPage.title",
    description: translatorFor(rootLanguage(matches))("shop.importPage.description"),
  });

export default function ImportPage() {
  const { link, view, views, loggedIn } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const { t, message } = useI18n();
  return (
    <section className="import-page" aria-labelledby="import-title">
      <h1 id="import-title">{t("shop.search.findByLink")}</h1>
      <p className="muted">{t("shop.importPage.intro")}</p>
      <Form method="get" action="/import" className="import-page__form">
        <label htmlFor="import-link">{t("shop.importPage.label")}</label>
        <div className="site-search">
          <input
            id="import-link"
            name="link"
            type="text"
            defaultValue={failed?.link ?? link}
            required
            maxLength={MAX_LINK}
            autoComplete="off"
            inputMode="url"
            placeholder="https://weidian.com/item.html?itemID=…"
          />
          <SubmitButton pendingText={t("shop.importPage.looking")}>{t("shop.importPage.find")}</SubmitButton>
        </div>
      </Form>
      {failed ? (
        <p className="notice notice--warning" role="alert">
          {message(failed.error)}
        </p>
      ) : null}
      {view ? <ImportPanel view={view} loggedIn={loggedIn} /> : null}
      {views ? <PastedList views={views} loggedIn={loggedIn} /> : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
