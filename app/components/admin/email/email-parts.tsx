/**
 * Pieces of the e-mail marketing screens: the tabs, status badges, the progress of a
 * campaign (the spec's completion indicator), the 7-day chart, and the live refresh that
 * JavaScript adds (without it, a reload shows the same numbers).
 */
import { isRouteErrorResponse, Link, NavLink, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import {
  EMAIL_MESSAGES,
  CAMPAIGN_STATUS_LABELS,
  COMPLETION_LABELS,
  completionIndicator,
  type CampaignStatus,
  type CompletionIndicator,
} from "~/schemas/email-rules";

const TABS = [
  { to: "/admin/email-management", label: "Templates", end: true },
  { to: "/admin/email-management/campaigns", label: "Campaigns", end: false },
  { to: "/admin/email-management/html-templates", label: "HTML templates", end: false },
  { to: "/admin/email-management/stats", label: "Statistics", end: false },
];

/** The four tabs: links, so each is a page of its own that works without JavaScript. */
export function EmailTabs() {
  return (
    <nav className="email-tabs" aria-label="Email marketing sections">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className="email-tabs__tab" prefetch="intent">
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return <span className={`admin-badge email-status email-status--${status}`}>{CAMPAIGN_STATUS_LABELS[status]}</span>;
}

export type ProgressNumbers = { total: number; sent: number; failed: number; pending: number; skipped: number };

const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(2)}%` : "0%");

/**
 * Sent / failed / pending as a bar and in words, with the spec's completion indicator:
 * pending > 0 → sending; no failures → complete; otherwise partly failed.
 */
export function CampaignProgress({ numbers, compact }: { numbers: ProgressNumbers; compact?: boolean }) {
  const indicator: CompletionIndicator = completionIndicator(numbers);
  const { total, sent, failed, pending, skipped } = numbers;
  return (
    <div className={compact ? "email-progress email-progress--compact" : "email-progress"}>
      <div
        className="email-progress__bar"
        role="progressbar"
        aria-label="Sending progress"
        aria-valuemin={0}
        aria-valuemax={Math.max(total, 1)}
        aria-valuenow={total - pending}
        aria-valuetext={`${total - pending} of ${total} done`}
      >
        <span className="email-progress__sent" style={{ width: percent(sent, total) }} />
        <span className="email-progress__failed" style={{ width: percent(failed, total) }} />
        <span className="email-progress__skipped" style={{ width: percent(skipped, total) }} />
      </div>
      <p className="email-progress__numbers">
        <span className={`email-indicator email-indicator--${indicator}`}>{COMPLETION_LABELS[indicator]}</span>{" "}
        <span data-testid="progress-sent">{sent} sent</span> · <span data-testid="progress-failed">{failed} failed</span> ·{" "}
        <span data-testid="progress-pending">{pending} pending</span>
        {skipped ? <> · {skipped} skipped</> : null}
        {compact ? null : <> · {total} recipients</>}
      </p>
    </div>
  );
}

/**
 * With JavaScript, reloads the page's data every `everyMs` while `active` (a campaign is
 * sending) and the tab is visible. Without it, the page shows a Refresh link instead.
 */
export function useLiveRefresh(active: boolean, everyMs = 1500) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (latest.current.state === "idle" && document.visibilityState === "visible") latest.current.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
}

/** The note shown while something is sending: live with JavaScript, a link to reload without. */
export function LiveNote({ active }: { active: boolean }) {
  const location = useLocation();
  if (!active) return null;
  return (
    <p className="muted email-live" role="status">
      Sending: the numbers update by themselves.{" "}
      <Link to={location.pathname + location.search} preventScrollReset replace>
        Refresh now
      </Link>
    </p>
  );
}

export type DayStat = { date: string; sent: number; failed: number; total: number };

/** The last 7 days as bars (sent and failed stacked) with their numbers: readable without JavaScript. */
export function RecentChart({ days }: { days: DayStat[] }) {
  const max = Math.max(1, ...days.map((day) => day.total));
  return (
    <figure className="email-chart">
      <figcaption>Messages per day, last {days.length} days (UTC)</figcaption>
      <ol className="email-chart__bars">
        {days.map((day) => (
          <li key={day.date} className="email-chart__day">
            <span className="email-chart__value">{day.total}</span>
            <span className="email-chart__column" aria-hidden="true">
              <span className="email-chart__failed" style={{ height: `${(day.failed / max) * 100}%` }} />
              <span className="email-chart__sent" style={{ height: `${(day.sent / max) * 100}%` }} />
            </span>
            <span className="email-chart__label">
              {day.date.slice(5)}
              <span className="visually-hidden">
                : {day.sent} sent, {day.failed} failed
              </span>
            </span>
          </li>
        ))}
      </ol>
      <p className="email-chart__legend muted">
        <span className="email-chart__key email-chart__key--sent" aria-hidden="true" /> sent{" "}
        <span className="email-chart__key email-chart__key--failed" aria-hidden="true" /> failed
      </p>
    </figure>
  );
}

/**
 * The error screens of e-mail marketing: 403 in the spec's words ('权限不足，需要管理员权限'),
 * 4xx as usual, and for anything unexpected the fallback with a reload button (docs/product/admin.md 2).
 */
export function EmailErrorView({ error }: { error: unknown }) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">403</p>
        <h1 id="error-title">{EMAIL_MESSAGES.forbidden}</h1>
        <p>Email marketing is for administrators.</p>
        <p>
          <a className="button" href="/admin">
            Back to the dashboard
          </a>
        </p>
      </section>
    );
  }
  return <AdminErrorPage error={error} loadFailed={EMAIL_MESSAGES.loadFailed} reloadTo={location.pathname + location.search} />;
}
