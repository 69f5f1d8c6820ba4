import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { getSystemStatus } from "~/services/site-tools.server";
import { useI18n } from "~/i18n/i18n";

/**
 * The settings cards: each opens a page that works. Nothing is announced before it is
 * built (docs/decisions/025-no-coming-soon.md).
 */
const SETTINGS_CARDS: Array<{ id: string; titleKey: string; descriptionKey: string; to: string }> = [
  {
    id: "site",
    titleKey: "admin.settings.siteTitle",
    descriptionKey: "admin.settings.siteDescription",
    to: "/admin/site-settings",
  },
  {
    id: "currency",
    titleKey: "admin.settings.currencyTitle",
    descriptionKey: "admin.settings.currencyDescription",
    to: "/admin/currency-settings",
  },
  {
    id: "display",
    titleKey: "admin.settings.displayTitle",
    descriptionKey: "admin.settings.displayDescription",
    to: "/admin/product-display-settings",
  },
  {
    id: "agents",
    titleKey: "admin.settings.agentsTitle",
    descriptionKey: "admin.settings.agentsDescription",
    to: "/admin/agents",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { superAdmin: true });
  return { cards: SETTINGS_CARDS, status: await getSystemStatus() };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.settings.pageTitle", noindex: true });

export default function AdminSettingsHub() {
  const { cards, status } = useLoaderData<typeof loader>();
  const { t, message } = useI18n();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>{t("admin.nav.settings")}</h1>
        <p className="muted">{t("admin.settings.intro")}</p>
      </header>

      <ul className="admin-settings-cards">
        {cards.map((card) => (
          <li key={card.id} className="card">
            <h2>{t(card.titleKey)}</h2>
            <p className="muted">{t(card.descriptionKey)}</p>
            <Link to={card.to} className="button button--secondary">
              {t("admin.settings.open", { name: t(card.titleKey).toLowerCase() })}
            </Link>
          </li>
        ))}
      </ul>

      <section className="card" aria-labelledby="system-status">
        <h2 id="system-status">{t("admin.settings.systemStatus")}</h2>
        <dl className="admin-facts">
          <dt>{t("admin.dashboard.version")}</dt>
          <dd>{`v${status.version}`}</dd>
          <dt>{t("admin.settings.database")}</dt>
          <dd className={status.database.ok ? "admin-ok" : "admin-bad"}>{message(status.database.detail)}</dd>
          <dt>{t("admin.settings.cache")}</dt>
          <dd className="admin-ok">{message(status.cache)}</dd>
          <dt>{t("admin.settings.lastMaintenance")}</dt>
          <dd>{status.lastMaintenance}</dd>
        </dl>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
