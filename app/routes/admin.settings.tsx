import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { getSystemStatus } from "~/services/site-tools.server";

/**
 * The settings cards: each opens a page that works. Nothing is announced before it is
 * built (docs/decisions/025-no-coming-soon.md).
 */
const SETTINGS_CARDS: Array<{ id: string; title: string; description: string; to: string }> = [
  {
    id: "site",
    title: "Site settings",
    description: "Name, address, SEO, analytics, the advertisement banner and SEO tools.",
    to: "/admin/site-settings",
  },
  {
    id: "currency",
    title: "Exchange rates",
    description: "Manual or automatic CNY rates for the currencies visitors can pick.",
    to: "/admin/currency-settings",
  },
  {
    id: "display",
    title: "Product display",
    description: "Show or hide external products on the storefront.",
    to: "/admin/product-display-settings",
  },
  {
    id: "agents",
    title: "Shopping agents",
    description: "The agents product pages link to, their link formats, order and referral codes.",
    to: "/admin/agents",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { superAdmin: true });
  return { cards: SETTINGS_CARDS, status: await getSystemStatus() };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Admin settings · Admin", noindex: true });

export default function AdminSettingsHub() {
  const { cards, status } = useLoaderData<typeof loader>();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>Admin settings</h1>
        <p className="muted">Everything that configures the site, in one place.</p>
      </header>

      <ul className="admin-settings-cards">
        {cards.map((card) => (
          <li key={card.id} className="card">
            <h2>{card.title}</h2>
            <p className="muted">{card.description}</p>
            <Link to={card.to} className="button button--secondary">
              Open {card.title.toLowerCase()}
            </Link>
          </li>
        ))}
      </ul>

      <section className="card" aria-labelledby="system-status">
        <h2 id="system-status">System status</h2>
        <dl className="admin-facts">
          <dt>Version</dt>
          <dd>{`v${status.version}`}</dd>
          <dt>Database</dt>
          <dd className={status.database.ok ? "admin-ok" : "admin-bad"}>{status.database.detail}</dd>
          <dt>Cache</dt>
          <dd className="admin-ok">{status.cache}</dd>
          <dt>Last maintenance</dt>
          <dd>{status.lastMaintenance}</dd>
        </dl>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
