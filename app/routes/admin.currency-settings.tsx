import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDateTime } from "~/components/admin/format";
import { FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError, isServiceError } from "~/lib/api.server";
import { CURRENCIES, CURRENCY_CODES, DEFAULT_RATES, type CurrencyCode } from "~/lib/currency";
import { log } from "~/lib/log.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { RATE_MESSAGES } from "~/schemas/catalogue-messages";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n, useT } from "~/i18n/i18n";
import { currencyName } from "~/components/storefront/labels";
import { forceRefreshRates, getRates, setManualRatesFromInput, switchToAutomaticRates, MANAGE_RATES } from "~/services/currency.server";

const FOREIGN = CURRENCY_CODES.filter((code): code is Exclude<CurrencyCode, "CNY"> => code !== "CNY");
const PAGE = "/admin/currency-settings";

/** /admin/currency-settings (super admin): manual or automatic CNY rates (docs/product/admin.md 2, 4, 5). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_RATES);
  const view = await getRates();
  return {
    mode: view.mode,
    lastUpdated: view.lastUpdated,
    rates: FOREIGN.map((code) => ({ code, name: CURRENCIES[code].name, value: view.rates[code], fallback: DEFAULT_RATES[code] })),
  };
}

type ActionData = { error: string; values: Record<string, string> };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = formData.get("intent");
      // the notices in the reader's language (the services' words are the /api's)
      const language = readLanguage(request);
      const t = translatorFor(language);
      const say = (text: string) => translateMessage(language, text);

      if (intent === "save") {
        const values: Record<string, string> = {};
        for (const code of FOREIGN) values[code] = String(formData.get(code) ?? "");
        try {
          await setManualRatesFromInput(values, actor);
        } catch (error) {
          if (isServiceError(error) && error.status === 400) return { error: say(error.message), values } satisfies ActionData;
          if (!isServiceError(error) && error instanceof ApiError) throw error;
          log.error(`saving manual rates failed: ${(error as Error).message}`);
          return { error: say(RATE_MESSAGES.saveFailed), values } satisfies ActionData;
        }
        return redirectWithToast(PAGE, { message: say(RATE_MESSAGES.saved) });
      }

      if (intent === "refresh") {
        const { fetched } = await forceRefreshRates(actor);
        return redirectWithToast(
          PAGE,
          fetched
            ? { message: t("admin.currency.refreshed") }
            : {
                type: "error",
                message: t("admin.currency.refreshFailed"),
              },
        );
      }

      if (intent === "automatic") {
        await switchToAutomaticRates(actor);
        return redirectWithToast(PAGE, { message: t("admin.currency.automaticAgain") });
      }

      throw new Response("Unknown action", { status: 400 });
    },
    MANAGE_RATES,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.currency.pageTitle", noindex: true });

export default function CurrencySettings() {
  const { mode, lastUpdated, rates } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, message, language } = useI18n();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/settings">← {t("admin.nav.settings")}</Link>
        </p>
        <h1>{t("admin.currency.title")}</h1>
        <p className="muted">{t("admin.currency.intro")}</p>
      </header>

      <section className="card" aria-labelledby="rate-status">
        <h2 id="rate-status">{t("admin.currency.status")}</h2>
        <dl className="admin-facts">
          <dt>{t("admin.currency.mode")}</dt>
          <dd>
            <span className={mode === "manual" ? "admin-badge admin-badge--warning" : "admin-badge admin-badge--success"}>
              {mode === "manual" ? t("admin.currency.manual") : t("admin.currency.automatic")}
            </span>
          </dd>
          <dt>{t("admin.currency.lastUpdate")}</dt>
          <dd>{lastUpdated ? formatDateTime(lastUpdated) : t("admin.currency.neverUpdated")}</dd>
        </dl>
        <div className="form-actions">
          <Form method="post">
            <SubmitButton name="intent" value="refresh" className="button button--secondary" pendingText={t("admin.currency.fetching")}>
              {t("admin.currency.forceRefresh")}
            </SubmitButton>
          </Form>
          {mode === "manual" ? (
            <Form method="post">
              <SubmitButton
                name="intent"
                value="automatic"
                className="button button--secondary"
                pendingText={t("admin.currency.switching")}
              >
                {t("admin.currency.backToAutomatic")}
              </SubmitButton>
            </Form>
          ) : null}
        </div>
        <p className="field__hint">{t("admin.currency.forceRefreshHint")}</p>
      </section>

      <section className="card" aria-labelledby="manual-rates">
        <h2 id="manual-rates">{t("admin.currency.manualRates")}</h2>
        <Form method="post" className="admin-rates-form">
          <FormErrors id="rates-errors" errors={actionData?.error ? [message(actionData.error)] : []} />
          <div className="admin-form-grid">
            {rates.map((rate) => (
              <div className="field" key={rate.code}>
                <label htmlFor={`rate-${rate.code}`}>
                  {t("admin.currency.rateLabel", {
                    code: rate.code,
                    name: currencyName(language, rate.code),
                  })}
                </label>
                <input
                  id={`rate-${rate.code}`}
                  name={rate.code}
                  type="number"
                  step="0.0001"
                  min="0"
                  inputMode="decimal"
                  defaultValue={actionData?.values[rate.code] ?? String(rate.value)}
                  aria-describedby={`rate-${rate.code}-hint`}
                />
                <span className="field__hint" id={`rate-${rate.code}-hint`}>
                  {t("admin.currency.default", { value: rate.fallback })}
                </span>
              </div>
            ))}
          </div>
          <div className="form-actions">
            <SubmitButton name="intent" value="save" className="button" pendingText={t("admin.common.saving")}>
              {t("admin.currency.saveManual")}
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section className="card" aria-labelledby="rates-help">
        <h2 id="rates-help">{t("admin.currency.howTitle")}</h2>
        <ul className="admin-help">
          <li>{t("admin.currency.how1")}</li>
          <li>{t("admin.currency.how2")}</li>
          <li>{t("admin.currency.how3")}</li>
          <li>{t("admin.currency.how4")}</li>
        </ul>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.currency.loadFailed")} />;
}
