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
import { RATE_MESSAGES } from "~/schemas/catalogue-rules";
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

      if (intent === "save") {
        const values: Record<string, string> = {};
        for (const code of FOREIGN) values[code] = String(formData.get(code) ?? "");
        try {
          await setManualRatesFromInput(values, actor);
        } catch (error) {
          if (isServiceError(error) && error.status === 400) return { error: error.message, values } satisfies ActionData;
          if (!isServiceError(error) && error instanceof ApiError) throw error;
          log.error(`saving manual rates failed: ${(error as Error).message}`);
          return { error: RATE_MESSAGES.saveFailed, values } satisfies ActionData;
        }
        return redirectWithToast(PAGE, { message: RATE_MESSAGES.saved });
      }

      if (intent === "refresh") {
        const { fetched } = await forceRefreshRates(actor);
        return redirectWithToast(
          PAGE,
          fetched
            ? { message: "Exchange rates refreshed from the live source" }
            : {
                type: "error",
                message: "The live rates could not be fetched. Set the rates manually below if the ones in effect are out of date.",
              },
        );
      }

      if (intent === "automatic") {
        await switchToAutomaticRates(actor);
        return redirectWithToast(PAGE, { message: "Automatic rates are in effect again" });
      }

      throw new Response("Unknown action", { status: 400 });
    },
    MANAGE_RATES,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Exchange rates · Admin", noindex: true });

export default function CurrencySettings() {
  const { mode, lastUpdated, rates } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/settings">← Admin settings</Link>
        </p>
        <h1>Exchange rates</h1>
        <p className="muted">Prices are stored in CNY and shown in the visitor's currency at these rates.</p>
      </header>

      <section className="card" aria-labelledby="rate-status">
        <h2 id="rate-status">Status</h2>
        <dl className="admin-facts">
          <dt>Mode</dt>
          <dd>
            <span className={mode === "manual" ? "admin-badge admin-badge--warning" : "admin-badge admin-badge--success"}>
              {mode === "manual" ? "Manual" : "Automatic"}
            </span>
          </dd>
          <dt>Last update</dt>
          <dd>{lastUpdated ? formatDateTime(lastUpdated) : RATE_MESSAGES.neverUpdated}</dd>
        </dl>
        <div className="form-actions">
          <Form method="post">
            <SubmitButton name="intent" value="refresh" className="button button--secondary" pendingText="Fetching…">
              Force refresh
            </SubmitButton>
          </Form>
          {mode === "manual" ? (
            <Form method="post">
              <SubmitButton name="intent" value="automatic" className="button button--secondary" pendingText="Switching…">
                Back to automatic rates
              </SubmitButton>
            </Form>
          ) : null}
        </div>
        <p className="field__hint">
          Force refresh fetches the live rates now (ignoring the once-a-day limit) and returns to automatic mode.
        </p>
      </section>

      <section className="card" aria-labelledby="manual-rates">
        <h2 id="manual-rates">Manual rates</h2>
        <Form method="post" className="admin-rates-form">
          <FormErrors id="rates-errors" errors={actionData?.error ? [actionData.error] : []} />
          <div className="admin-form-grid">
            {rates.map((rate) => (
              <div className="field" key={rate.code}>
                <label htmlFor={`rate-${rate.code}`}>
                  1 {rate.code} ({rate.name}) = … CNY
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
                  Default {rate.fallback}
                </span>
              </div>
            ))}
          </div>
          <div className="form-actions">
            <SubmitButton name="intent" value="save" className="button" pendingText="Saving…">
              Save manual rates
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section className="card" aria-labelledby="rates-help">
        <h2 id="rates-help">How rates work</h2>
        <ul className="admin-help">
          <li>Each rate is how many CNY one unit of the currency costs, for example 1 USD = 6.64 CNY. Four decimals are recommended.</li>
          <li>
            Saving manual rates switches to manual mode: the rates you set are used until you refresh or go back to automatic rates. Empty
            or zero values keep the automatic rate for that currency.
          </li>
          <li>
            In automatic mode the rates are fetched once a day. If the source is unavailable the last fetched rates (or the defaults) stay
            in effect.
          </li>
          <li>Displayed price = CNY price ÷ rate, rounded to 2 decimals; the CNY price is shown beside it.</li>
        </ul>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The exchange rates could not be loaded." />;
}
