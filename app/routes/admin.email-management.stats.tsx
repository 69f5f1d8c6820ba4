import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { EmailErrorView, RecentChart, useLiveRefresh } from "~/components/admin/email/email-parts";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { EMAIL_ACCESS, emailOverview } from "~/services/email.server";
import { useT } from "~/i18n/i18n";

/**
 * The statistics tab (docs/product/admin.md 3 "Email overview"): campaign counts, messages by
 * outcome, the success rate (sent ÷ total, one decimal), templates, and the last 7 days
 * as a chart drawn with HTML (readable without JavaScript) and as a table.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  return { overview: await emailOverview() };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.emailStats.pageTitle", noindex: true });

export default function EmailStats() {
  const { overview } = useLoaderData<typeof loader>();
  const t = useT();
  useLiveRefresh(overview.sendingCampaigns > 0, 3000);
  const cards: Array<{ label: string; value: string | number; id: string }> = [
    { id: "total-campaigns", label: t("admin.email.tabCampaigns"), value: overview.totalCampaigns },
    { id: "active-campaigns", label: t("admin.emailStats.active"), value: overview.activeCampaigns },
    { id: "completed-campaigns", label: t("admin.email.statusCompleted"), value: overview.completedCampaigns },
    { id: "draft-campaigns", label: t("admin.emailStats.drafts"), value: overview.draftCampaigns },
    { id: "failed-campaigns", label: t("admin.email.statusFailed"), value: overview.failedCampaigns },
    { id: "emails-sent", label: t("admin.emailStats.emailsSent"), value: overview.totalEmailsSent },
    { id: "success-rate", label: t("admin.emailStats.successRate"), value: `${overview.rates.successRate.toFixed(1)}%` },
    { id: "unsubscribed", label: t("admin.emailStats.unsubscribed"), value: overview.unsubscribed },
  ];
  return (
    <section aria-labelledby="stats-title">
      <div className="admin-page__header">
        <h2 id="stats-title">{t("admin.email.tabStats")}</h2>
      </div>
      <ul className="admin-cards" aria-label={t("admin.emailStats.overview")}>
        {cards.map((card) => (
          <li key={card.id} className="admin-card" data-testid={card.id}>
            <span className="admin-card__label">{card.label}</span>
            <strong className="admin-card__value">{card.value}</strong>
          </li>
        ))}
      </ul>
      <div className="admin-grid">
        <div>
          <h3>{t("admin.emailStats.messages")}</h3>
          <dl className="admin-facts" aria-label={t("admin.emailStats.byOutcome")}>
            <dt>{t("admin.campaign.colSent")}</dt>
            <dd data-testid="logs-sent">{overview.emailLogs.sent}</dd>
            <dt>{t("admin.email.statusFailed")}</dt>
            <dd data-testid="logs-failed">{overview.emailLogs.failed}</dd>
            <dt>{t("admin.campaign.colPending")}</dt>
            <dd data-testid="logs-pending">{overview.emailLogs.pending}</dd>
            <dt>{t("admin.emailStats.total")}</dt>
            <dd data-testid="logs-total">{overview.emailLogs.total}</dd>
            <dt>{t("admin.campaign.colSkipped")}</dt>
            <dd>{t("admin.emailStats.skipped", { count: overview.emailLogs.skipped })}</dd>
          </dl>
          <p className="muted">{t("admin.emailStats.rateHelp")}</p>
        </div>
        <div>
          <h3>{t("admin.email.tabTemplates")}</h3>
          <dl className="admin-facts">
            <dt>{t("admin.email.tabTemplates")}</dt>
            <dd>{overview.templates.total}</dd>
            <dt>{t("admin.emailStats.inUse")}</dt>
            <dd>{overview.templates.active}</dd>
          </dl>
        </div>
      </div>
      <h3>{t("admin.emailStats.last7")}</h3>
      <RecentChart days={overview.recentStats} />
      <table className="admin-table email-days">
        <caption className="visually-hidden">{t("admin.emailStats.perDay")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("admin.emailStats.dayUtc")}</th>
            <th scope="col">{t("admin.campaign.colSent")}</th>
            <th scope="col">{t("admin.email.statusFailed")}</th>
            <th scope="col">{t("admin.emailStats.total")}</th>
          </tr>
        </thead>
        <tbody>
          {overview.recentStats.map((day) => (
            <tr key={day.date}>
              <td data-label={t("admin.emailStats.day")}>{day.date}</td>
              <td data-label={t("admin.campaign.colSent")}>{day.sent}</td>
              <td data-label={t("admin.email.statusFailed")}>{day.failed}</td>
              <td data-label={t("admin.emailStats.total")}>{day.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
