/**
 * Pieces of the e-mail marketing screens: the tabs, status badges, the progress of a
 * campaign (the spec's completion indicator), the 7-day chart, and the live refresh that
 * JavaScript adds (without it, a reload shows the same numbers).
 */
import { isRouteErrorResponse, Link, NavLink, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { useI18n, useT, type Translate } from "~/i18n/i18n";
import {
  EMAIL_MESSAGES,
  completionIndicator,
  type CampaignStatus,
  type CompletionIndicator,
  type RecipientType,
  type RecurringPattern,
  type ScheduleType,
} from "~/schemas/email-rules";
import { StackedBar } from "~/components/admin/stacked-bar";

const TABS = [
  { to: "/admin/email-management", label: "admin.email.tabTemplates", end: true },
  { to: "/admin/email-management/campaigns", label: "admin.email.tabCampaigns", end: false },
  { to: "/admin/email-management/html-templates", label: "admin.email.tabHtml", end: false },
  { to: "/admin/email-management/stats", label: "admin.email.tabStats", end: false },
];

/** The names of the e-mail values, in the page's language (each key named literally for the catalogue check). */
export function campaignStatusLabel(t: Translate, status: CampaignStatus): string {
  switch (status) {
    case "draft":
      return t("admin.status.draft");
    case "scheduled":
      return t("admin.status.scheduled");
    case "sending":
      return t("admin.email.statusSending");
    case "completed":
      return t("admin.email.statusCompleted");
    case "failed":
      return t("admin.email.statusFailed");
    case "paused":
      return t("admin.email.statusPaused");
  }
}

export function completionLabel(t: Translate, indicator: CompletionIndicator): string {
  switch (indicator) {
    case "sending":
      return t("admin.email.statusSending");
    case "complete":
      return t("admin.email.complete");
    case "partly-failed":
      return t("admin.email.partlyFailed");
    case "not-started":
      return t("admin.email.notStarted");
  }
}

export function recipientLabel(t: Translate, type: RecipientType): string {
  switch (type) {
    case "all":
      return t("admin.email.recipientsAll");
    case "active":
      return t("admin.email.recipientsActive");
    case "inactive":
      return t("admin.email.recipientsInactive");
  }
}

export function scheduleLabel(t: Translate, type: ScheduleType): string {
  switch (type) {
    case "immediate":
      return t("admin.email.scheduleImmediate");
    case "scheduled":
      return t("admin.email.scheduleScheduled");
    case "recurring":
      return t("admin.email.scheduleRecurring");
  }
}

export function recurringLabel(t: Translate, pattern: RecurringPattern): string {
  switch (pattern) {
    case "daily":
      return t("admin.email.daily");
    case "weekly":
      return t("admin.email.weekly");
    case "monthly":
      return t("admin.email.monthly");
  }
}

/** The four tabs: links, so each is a page of its own that works without JavaScript. */
/**
 * A built-in design's name and description in the page's language; the /api keeps the
 * English ones (app/services/email-html-templates.server.ts), and a design added there
 * without keys here shows its own English words.
 */
export function builtInDesignText(t: Translate, design: { name: string; displayName: string; description: string }) {
  switch (design.name) {
    case "welcome":
      return { name: t("admin.emailHtml.welcomeName"), description: t("admin.emailHtml.welcomeDescription") };
    case "newsletter":
      return { name: t("admin.emailHtml.newsletterName"), description: t("admin.emailHtml.newsletterDescription") };
    case "promotion":
      return { name: t("admin.emailHtml.promotionName"), description: t("admin.emailHtml.promotionDescription") };
    case "announcement":
      return { name: t("admin.emailHtml.announcementName"), description: t("admin.emailHtml.announcementDescription") };
    default:
      return { name: design.displayName, description: design.description };
  }
}

export function EmailTabs() {
  const t = useT();
  return (
    <nav className="email-tabs" aria-label={t("admin.email.sections")}>
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className="email-tabs__tab" prefetch="intent">
          {t(tab.label)}
        </NavLink>
      ))}
    </nav>
  );
}

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const t = useT();
  return <span className={`admin-badge email-status email-status--${status}`}>{campaignStatusLabel(t, status)}</span>;
}

export type ProgressNumbers = { total: number; sent: number; failed: number; pending: number; skipped: number };

/**
 * Sent / failed / pending as a bar and in words, with the spec's completion indicator:
 * pending > 0 → sending; no failures → complete; otherwise partly failed.
 */
export function CampaignProgress({ numbers, compact }: { numbers: ProgressNumbers; compact?: boolean }) {
  const t = useT();
  const indicator: CompletionIndicator = completionIndicator(numbers);
  const { total, sent, failed, pending, skipped } = numbers;
  return (
    <div className={compact ? "email-progress email-progress--compact" : "email-progress"}>
      <StackedBar
        className="email-progress__bar"
        role="progressbar"
        aria-label={t("admin.email.sendingProgress")}
        aria-valuemin={0}
        aria-valuemax={Math.max(total, 1)}
        aria-valuenow={total - pending}
        aria-valuetext={t("admin.email.doneOf", { done: total - pending, total })}
        total={total}
        parts={[
          { value: sent, tone: "good", className: "email-progress__sent" },
          { value: failed, tone: "bad", className: "email-progress__failed" },
          { value: skipped, tone: "neutral", className: "email-progress__skipped" },
        ]}
      />
      <p className="email-progress__numbers">
        <span className={`email-indicator email-indicator--${indicator}`}>{completionLabel(t, indicator)}</span>{" "}
        <span data-testid="progress-sent">{t("admin.email.nSent", { count: sent })}</span> ·{" "}
        <span data-testid="progress-failed">{t("admin.email.nFailed", { count: failed })}</span> ·{" "}
        <span data-testid="progress-pending">{t("admin.email.nPending", { count: pending })}</span>
        {skipped ? <> · {t("admin.email.nSkipped", { count: skipped })}</> : null}
        {compact ? null : <> · {t("admin.email.nRecipients", { count: total })}</>}
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
  const t = useT();
  const location = useLocation();
  if (!active) return null;
  return (
    <p className="muted email-live" role="status">
      {t("admin.email.liveNote")}{" "}
      <Link to={location.pathname + location.search} preventScrollReset replace>
        {t("admin.email.refreshNow")}
      </Link>
    </p>
  );
}

export type DayStat = { date: string; sent: number; failed: number; total: number };

/** The last 7 days as bars (sent and failed stacked) with their numbers: readable without JavaScript. */
export function RecentChart({ days }: { days: DayStat[] }) {
  const t = useT();
  const max = Math.max(1, ...days.map((day) => day.total));
  return (
    <figure className="email-chart">
      <figcaption>{t("admin.email.chartCaption", { count: days.length })}</figcaption>
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
              <span className="visually-hidden">: {t("admin.email.chartDay", { sent: day.sent, failed: day.failed })}</span>
            </span>
          </li>
        ))}
      </ol>
      <p className="email-chart__legend muted">
        <span className="email-chart__key email-chart__key--sent" aria-hidden="true" /> {t("admin.email.legendSent")}{" "}
        <span className="email-chart__key email-chart__key--failed" aria-hidden="true" /> {t("admin.email.legendFailed")}
      </p>
    </figure>
  );
}

/**
 * The error screens of e-mail marketing: 403 in the spec's words ('权限不足，需要管理员权限'),
 * 4xx as usual, and for anything unexpected the fallback with a reload button (docs/product/admin.md 2).
 */
export function EmailErrorView({ error }: { error: unknown }) {
  const { t, message } = useI18n();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">403</p>
        <h1 id="error-title">{message(EMAIL_MESSAGES.forbidden)}</h1>
        <p>{t("admin.email.forAdmins")}</p>
        <p>
          <a className="button" href="/admin">
            {t("admin.error.backToDashboard")}
          </a>
        </p>
      </section>
    );
  }
  return <AdminErrorPage error={error} loadFailed={EMAIL_MESSAGES.loadFailed} reloadTo={location.pathname + location.search} />;
}
