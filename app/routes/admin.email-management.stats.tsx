import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { EmailErrorView, RecentChart, useLiveRefresh } from "~/components/admin/email/email-parts";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { EMAIL_ACCESS, emailOverview } from "~/services/email.server";

/**
 * The statistics tab (docs/product/admin.md 3 "Email overview"): campaign counts, messages by
 * outcome, the success rate (sent ÷ total, one decimal), templates, and the last 7 days
 * as a chart drawn with HTML (readable without JavaScript) and as a table.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  return { overview: await emailOverview() };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Email statistics · Admin", noindex: true });

export default function EmailStats() {
  const { overview } = useLoaderData<typeof loader>();
  useLiveRefresh(overview.sendingCampaigns > 0, 3000);
  const cards: Array<{ label: string; value: string | number; id: string }> = [
    { id: "total-campaigns", label: "Campaigns", value: overview.totalCampaigns },
    { id: "active-campaigns", label: "Active (sending, scheduled, paused)", value: overview.activeCampaigns },
    { id: "completed-campaigns", label: "Completed", value: overview.completedCampaigns },
    { id: "draft-campaigns", label: "Drafts", value: overview.draftCampaigns },
    { id: "failed-campaigns", label: "Failed", value: overview.failedCampaigns },
    { id: "emails-sent", label: "E-mails sent", value: overview.totalEmailsSent },
    { id: "success-rate", label: "Success rate", value: `${overview.rates.successRate.toFixed(1)}%` },
    { id: "unsubscribed", label: "Unsubscribed users", value: overview.unsubscribed },
  ];
  return (
    <section aria-labelledby="stats-title">
      <div className="admin-page__header">
        <h2 id="stats-title">Statistics</h2>
      </div>
      <ul className="admin-cards" aria-label="Overview">
        {cards.map((card) => (
          <li key={card.id} className="admin-card" data-testid={card.id}>
            <span className="admin-card__label">{card.label}</span>
            <strong className="admin-card__value">{card.value}</strong>
          </li>
        ))}
      </ul>
      <div className="admin-grid">
        <div>
          <h3>Messages</h3>
          <dl className="admin-facts" aria-label="Messages by outcome">
            <dt>Sent</dt>
            <dd data-testid="logs-sent">{overview.emailLogs.sent}</dd>
            <dt>Failed</dt>
            <dd data-testid="logs-failed">{overview.emailLogs.failed}</dd>
            <dt>Pending</dt>
            <dd data-testid="logs-pending">{overview.emailLogs.pending}</dd>
            <dt>Total</dt>
            <dd data-testid="logs-total">{overview.emailLogs.total}</dd>
            <dt>Skipped</dt>
            <dd>{overview.emailLogs.skipped} (unsubscribed or unverified when their turn came)</dd>
          </dl>
          <p className="muted">Success rate = sent ÷ total (sent, failed and pending).</p>
        </div>
        <div>
          <h3>Templates</h3>
          <dl className="admin-facts">
            <dt>Templates</dt>
            <dd>{overview.templates.total}</dd>
            <dt>In use by a campaign</dt>
            <dd>{overview.templates.active}</dd>
          </dl>
        </div>
      </div>
      <h3>Last 7 days</h3>
      <RecentChart days={overview.recentStats} />
      <table className="admin-table email-days">
        <caption className="visually-hidden">Messages per day</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Sent</th>
            <th scope="col">Failed</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {overview.recentStats.map((day) => (
            <tr key={day.date}>
              <td data-label="Day">{day.date}</td>
              <td data-label="Sent">{day.sent}</td>
              <td data-label="Failed">{day.failed}</td>
              <td data-label="Total">{day.total}</td>
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
