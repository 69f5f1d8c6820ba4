/**
 * One campaign's page (/admin/email-management/campaigns/:id): its progress over every run
 * (live with JavaScript), why it is paused, what is retried and what a crash left uncertain,
 * its facts, its runs, the recipients that failed, a preview, and the edit, execute and
 * delete dialogs chosen by the URL.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Link, useLocation } from "@remix-run/react";
import { AdminDialog } from "~/components/admin/dialog";
import { Emphasis, MARK } from "~/components/admin/emphasis";
import { formatDateTime } from "~/components/admin/format";
import { useZonedTime } from "~/components/admin/time-zone";
import { useI18n, useT, type Translate } from "~/i18n/i18n";
import {
  EMAIL_MESSAGES as M,
  type CampaignRunStatus,
  type CampaignStatus,
  type RecipientType,
  type RecurringPattern,
  type ScheduleType,
} from "~/schemas/email-rules";
import { CampaignActions, CampaignForm, DeleteCampaignForm, ExecuteCampaignForm } from "./email-forms";
import { CampaignProgress, CampaignStatusBadge, LiveNote, recipientLabel, recurringLabel, useLiveRefresh } from "./email-parts";

const LIST = "/admin/email-management/campaigns";

type CampaignRun = {
  id: number;
  seq: number;
  status: CampaignRunStatus;
  pause_reason: string | null;
  started_at: string;
  finished_at: string | null;
  total_recipients: number;
  sent_count: number;
  failed_count: number;
  pending_count: number;
  skipped_count: number;
};

type FailedRecipient = { email: string | null; error: string | null; finishedAt: string | null; runSeq: number };

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type CampaignDetailData = {
  campaign: {
    id: number;
    name: string;
    subject: string;
    template_id: number | null;
    template_name: string | null;
    html_content: string | null;
    text_content: string | null;
    status: CampaignStatus;
    recipient_type: RecipientType;
    schedule_type: ScheduleType;
    scheduled_at: string | null;
    recurring_pattern: RecurringPattern | null;
    next_run_at: string | null;
    run_count: number;
    total_recipients: number;
    sent_count: number;
    failed_count: number;
    pending_count: number;
    skipped_count: number;
    uncertain_count: number;
    created_at: string;
    created_by_name: string | null;
  };
  runs: CampaignRun[];
  openRun: CampaignRun | null;
  failures: FailedRecipient[];
  retrying: { count: number; lastError: string | null; nextAttemptAt: string | null } | null;
  preview: { subject: string; html: string } | null;
  dialog:
    | { kind: "edit"; templates: Array<{ id: number; name: string }>; audience: Record<RecipientType, number> }
    | { kind: "not-editable" }
    | { kind: "execute"; audience: number }
    | { kind: "delete" }
    | null;
};

/** What saving the edit dialog answers when it does not redirect. */
type CampaignDetailActionData = { intent: "update"; result: SubmissionResult<string[]> };

/** A run's status in words (the page's language). */
function runStatusLabel(t: Translate, status: CampaignRunStatus): string {
  switch (status) {
    case "sending":
      return t("admin.campaign.runSending");
    case "paused":
      return t("admin.campaign.runPaused");
    case "waiting":
      return t("admin.campaign.waitingRelay");
    case "completed":
      return t("admin.campaign.runCompleted");
    case "failed":
      return t("admin.campaign.runFailed");
  }
}

export function CampaignDetailPage({ data, actionData }: { data: CampaignDetailData; actionData?: CampaignDetailActionData }) {
  const { campaign, runs, openRun, failures, retrying, preview, dialog } = data;
  const { t, message } = useI18n();
  // scheduled times in the admin's zone (the rest of the page's times stay in UTC, so labelled)
  const zoned = useZonedTime();
  const location = useLocation();
  const here = location.pathname;
  const live = campaign.status === "sending" || openRun?.status === "waiting";
  useLiveRefresh(live && !dialog, campaign.status === "sending" ? 1500 : 5000);
  const schedule =
    campaign.schedule_type === "immediate"
      ? t("admin.email.scheduleImmediate")
      : campaign.schedule_type === "scheduled"
        ? t("admin.email.at", { at: zoned.format(campaign.scheduled_at) })
        : t("admin.email.patternFrom", {
            pattern: campaign.recurring_pattern ? recurringLabel(t, campaign.recurring_pattern) : t("admin.email.scheduleRecurring"),
            from: zoned.format(campaign.scheduled_at),
          });
  const uncertain = campaign.uncertain_count;

  return (
    <section aria-labelledby="campaign-title" className="email-campaign">
      <p className="admin-breadcrumb">
        <Link to={LIST}>← {t("admin.email.tabCampaigns")}</Link>
      </p>
      <div className="admin-page__header admin-page__header--row">
        <h2 id="campaign-title">
          {campaign.name} <CampaignStatusBadge status={campaign.status} />
        </h2>
        <CampaignActions
          campaign={campaign}
          action={here}
          returnTo={here}
          hrefs={{ execute: `${here}?modal=execute`, edit: `${here}?modal=edit`, delete: `${here}?modal=delete` }}
        />
      </div>

      {openRun?.pause_reason ? (
        <p className={openRun.status === "waiting" ? "notice notice--error" : "notice"} role="status">
          {message(openRun.pause_reason)} {openRun.status === "waiting" ? t("admin.campaign.resumeNow") : t("admin.campaign.resumeNext")}
        </p>
      ) : null}
      {retrying ? (
        <p className="notice" role="status">
          {retrying.lastError
            ? t("admin.campaign.retryingError", {
                count: retrying.count,
                error: message(retrying.lastError),
                at: formatDateTime(retrying.nextAttemptAt),
              })
            : t("admin.campaign.retrying", { count: retrying.count, at: formatDateTime(retrying.nextAttemptAt) })}
        </p>
      ) : null}
      {uncertain > 0 ? (
        <p className="notice notice--error" role="status">
          {t("admin.campaign.uncertain", { count: uncertain })}
        </p>
      ) : null}

      <div className="admin-card email-campaign__progress">
        {campaign.run_count > 0 ? (
          <CampaignProgress
            numbers={{
              total: campaign.total_recipients,
              sent: campaign.sent_count,
              failed: campaign.failed_count,
              pending: campaign.pending_count,
              skipped: campaign.skipped_count,
            }}
          />
        ) : (
          <p className="muted">
            {campaign.status === "scheduled"
              ? t("admin.campaign.starts", { at: zoned.format(campaign.next_run_at) })
              : t("admin.campaign.notSentYet")}
          </p>
        )}
        <LiveNote active={live} />
      </div>

      <dl className="admin-facts">
        <dt>{t("admin.emailForms.subject")}</dt>
        <dd>{campaign.subject}</dd>
        <dt>{t("admin.campaign.template")}</dt>
        <dd>{campaign.template_name ?? t("admin.campaign.ownBody")}</dd>
        <dt>{t("admin.emailForms.recipients")}</dt>
        <dd>{recipientLabel(t, campaign.recipient_type)}</dd>
        <dt>{t("admin.emailForms.schedule")}</dt>
        <dd>{schedule}</dd>
        {campaign.next_run_at ? (
          <>
            <dt>{t("admin.campaign.nextRun")}</dt>
            <dd>{zoned.format(campaign.next_run_at)}</dd>
          </>
        ) : null}
        <dt>{t("admin.categoryForm.created")}</dt>
        <dd>
          {formatDateTime(campaign.created_at)}
          {campaign.created_by_name ? ` ${t("admin.email.by", { name: campaign.created_by_name })}` : ""}
        </dd>
      </dl>

      {runs.length > 0 ? <CampaignRunsTable runs={runs} /> : null}

      {failures.length > 0 ? <FailedRecipientsTable failures={failures} /> : null}

      {preview ? (
        <>
          <h3>{t("admin.blogPost.preview")}</h3>
          <p className="muted">
            <Emphasis text={t("admin.campaign.previewSubject", { subject: MARK })}>{preview.subject}</Emphasis>
          </p>
          <iframe
            title={t("admin.campaign.previewOf", { name: campaign.name })}
            className="email-preview"
            sandbox=""
            srcDoc={preview.html}
            loading="lazy"
          />
        </>
      ) : (
        <p className="notice">{message(M.contentRequired)}.</p>
      )}

      {dialog?.kind === "edit" ? (
        <AdminDialog id="edit-campaign" title={t("admin.campaign.edit")} closeTo={here} wide>
          <CampaignForm
            id={`edit-campaign-form-${campaign.id}`}
            intent="update"
            templates={dialog.templates}
            audience={dialog.audience}
            defaults={{
              name: campaign.name,
              subject: campaign.subject,
              templateId: campaign.template_id,
              htmlContent: campaign.html_content,
              textContent: campaign.text_content,
              recipientType: campaign.recipient_type,
              scheduleType: campaign.schedule_type,
              scheduledAt: campaign.scheduled_at,
              recurringPattern: campaign.recurring_pattern,
            }}
            lastResult={actionData?.intent === "update" ? actionData.result : undefined}
            submitLabel={t("admin.campaign.save")}
            cancelTo={here}
            withStart
          />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "not-editable" ? (
        <AdminDialog id="edit-campaign" title={t("admin.campaign.edit")} closeTo={here}>
          <p className="notice notice--error" role="alert">
            {message(M.editDraftOnly)}
          </p>
          <div className="form-actions">
            <Link to={here} className="button button--secondary" preventScrollReset>
              {t("admin.common.close")}
            </Link>
          </div>
        </AdminDialog>
      ) : null}

      {dialog?.kind === "execute" ? (
        <AdminDialog id="execute-campaign" title={t("admin.email.executeCampaign")} closeTo={here}>
          <ExecuteCampaignForm campaign={campaign} audience={dialog.audience} action={here} returnTo={here} cancelTo={here} />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-campaign" title={t("admin.emailForms.deleteCampaign")} closeTo={here}>
          <DeleteCampaignForm campaign={campaign} action={here} returnTo={here} cancelTo={here} />
        </AdminDialog>
      ) : null}
    </section>
  );
}

/** The campaign's runs, one row each: its status, when it started and finished, and its counts. */
function CampaignRunsTable({ runs }: { runs: CampaignRun[] }) {
  const t = useT();
  return (
    <>
      <h3>{t("admin.campaign.runs")}</h3>
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t("admin.campaign.colRun")}</th>
            <th scope="col">{t("admin.blogPost.status")}</th>
            <th scope="col">{t("admin.campaign.colStarted")}</th>
            <th scope="col">{t("admin.campaign.colFinished")}</th>
            <th scope="col">{t("admin.emailForms.recipients")}</th>
            <th scope="col">{t("admin.campaign.colSent")}</th>
            <th scope="col">{t("admin.email.statusFailed")}</th>
            <th scope="col">{t("admin.campaign.colPending")}</th>
            <th scope="col">{t("admin.campaign.colSkipped")}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td data-label={t("admin.campaign.colRun")}>#{run.seq}</td>
              <td data-label={t("admin.blogPost.status")}>{runStatusLabel(t, run.status)}</td>
              <td data-label={t("admin.campaign.colStarted")}>{formatDateTime(run.started_at)}</td>
              <td data-label={t("admin.campaign.colFinished")}>{formatDateTime(run.finished_at)}</td>
              <td data-label={t("admin.emailForms.recipients")}>{run.total_recipients}</td>
              <td data-label={t("admin.campaign.colSent")}>{run.sent_count}</td>
              <td data-label={t("admin.email.statusFailed")}>{run.failed_count}</td>
              <td data-label={t("admin.campaign.colPending")}>{run.pending_count}</td>
              <td data-label={t("admin.campaign.colSkipped")}>{run.skipped_count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The recipients whose mail failed: the address (or that the account is gone), the SMTP answer, when and in which run. */
function FailedRecipientsTable({ failures }: { failures: FailedRecipient[] }) {
  const t = useT();
  return (
    <>
      <h3>{t("admin.campaign.failedRecipients")}</h3>
      <p className="muted">{t("admin.campaign.failedHelp", { count: failures.length })}</p>
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t("admin.campaign.colAddress")}</th>
            <th scope="col">{t("admin.campaign.colSmtp")}</th>
            <th scope="col">{t("admin.campaign.colWhen")}</th>
          </tr>
        </thead>
        <tbody>
          {failures.map((failure, n) => (
            <tr key={`${failure.email}-${n}`}>
              <td data-label={t("admin.campaign.colAddress")} className="admin-table__wrap">
                {failure.email ?? t("admin.campaign.accountDeleted")}
              </td>
              <td data-label={t("admin.campaign.colSmtp")} className="admin-table__wrap">
                {failure.error}
              </td>
              <td data-label={t("admin.campaign.colWhen")}>
                {formatDateTime(failure.finishedAt)} ({t("admin.campaign.runN", { n: failure.runSeq })})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
