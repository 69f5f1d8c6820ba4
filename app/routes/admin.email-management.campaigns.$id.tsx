import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { AdminDialog } from "~/components/admin/dialog";
import { CampaignActions, CampaignForm, DeleteCampaignForm, ExecuteCampaignForm } from "~/components/admin/email/email-forms";
import { CampaignProgress, CampaignStatusBadge, EmailErrorView, LiveNote, useLiveRefresh } from "~/components/admin/email/email-parts";
import { formatDateTime } from "~/components/admin/format";
import { isNotFound, orPageNotFound, pageId, pageNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { campaignInputSchema } from "~/schemas/email";
import { EMAIL_MESSAGES as M } from "~/schemas/email-rules";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { translatorFor, useI18n } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";
import { recipientLabel, recurringLabel } from "~/components/admin/email/email-parts";
import { Emphasis, MARK } from "~/components/admin/emphasis";
import type { CampaignRunStatus } from "~/schemas/email-rules";
import type { Translate } from "~/i18n/i18n";

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
import {
  audienceCounts,
  campaignJson,
  campaignPreview,
  deleteEmailCampaign,
  EMAIL_ACCESS,
  editableEmailCampaign,
  emailCampaignDetail,
  executeEmailCampaign,
  listEmailTemplates,
  pauseEmailCampaign,
  runJson,
  unscheduleEmailCampaign,
  updateEmailCampaign,
} from "~/services/email.server";

/**
 * One campaign: its progress over every run (live with JavaScript), the reason it is
 * paused, what a crash left uncertain, its runs, the recipients that failed, a preview,
 * and every action its status allows. The list's action buttons post here too.
 */
const LIST = "/admin/email-management/campaigns";

const campaignId = (raw: string | undefined): number => pageId(raw, M.campaignNotFound);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request, EMAIL_ACCESS);
  const id = campaignId(params.id);
  const detail = await orPageNotFound(emailCampaignDetail(id), M.campaignNotFound);
  const modal = new URL(request.url).searchParams.get("modal");
  const needsAudience = modal === "edit" || modal === "execute";
  const [preview, audience, templates] = await Promise.all([
    campaignPreview(detail.campaign, actor),
    needsAudience ? audienceCounts() : null,
    modal === "edit" && detail.actions.edit ? listEmailTemplates() : null,
  ]);
  const open = detail.runs.find((run) => run.status === "sending" || run.status === "paused" || run.status === "waiting");
  return {
    campaign: campaignJson(detail.campaign),
    runs: detail.runs.map(runJson),
    openRun: open ? runJson(open) : null,
    failures: detail.failures,
    retrying: detail.retrying && {
      ...detail.retrying,
      nextAttemptAt: detail.retrying.nextAttemptAt ? new Date(detail.retrying.nextAttemptAt).toISOString() : null,
    },
    preview,
    dialog:
      modal === "edit" && detail.actions.edit && templates && audience
        ? { kind: "edit" as const, templates: templates.map(({ id, name }) => ({ id, name })), audience }
        : modal === "edit"
          ? { kind: "not-editable" as const }
          : modal === "execute" && detail.actions.execute && audience
            ? { kind: "execute" as const, audience: audience[detail.campaign.recipientType] }
            : modal === "delete" && detail.actions.delete
              ? { kind: "delete" as const }
              : null,
  };
}

/** Where the list's buttons come back to (the list with its filter and page), else this page. */
function backTo(formData: FormData, fallback: string): string {
  const returnTo = formData.get("returnTo");
  return typeof returnTo === "string" && /^\/admin\/email-management\/campaigns(\/\d+)?(\?[^#]*)?$/.test(returnTo) ? returnTo : fallback;
}

type ActionData = { intent: "update"; result: SubmissionResult<string[]> };

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(request, async (actor) => {
    const id = campaignId(params.id);
    const formData = await request.formData();
    const intent = formData.get("intent");
    const here = `${LIST}/${id}`;
    const back = backTo(formData, here);
    // the notices in the reader's language (the services' words are the /api's)
    const language = readLanguage(request);
    const say = (text: string) => translateMessage(language, text);
    const failed = (prefix: string, error: unknown) => {
      if (isServiceError(error)) return redirectWithToast(back, { type: "error", message: `${say(prefix)}: ${say(error.message)}` });
      throw error;
    };

    switch (intent) {
      case "update": {
        // the status first: a campaign that is not a draft says so ('只有草稿状态的活动可以编辑'), whatever the form holds
        try {
          await editableEmailCampaign(id);
        } catch (error) {
          if (isServiceError(error) && error.status === 400)
            return redirectWithToast(here, { type: "error", message: say(M.editDraftOnly) });
          throw isNotFound(error) ? pageNotFound(M.campaignNotFound) : error;
        }
        const submission = parseWithZod(formData, { schema: campaignInputSchema });
        if (submission.status !== "success") return { intent, result: submission.reply() } satisfies ActionData;
        let campaign;
        try {
          campaign = await updateEmailCampaign(id, submission.value, actor);
        } catch (error) {
          return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
        }
        if (formData.get("then") !== "start") return redirectWithToast(here, { message: `${say(M.campaignUpdated)}: ${campaign.name}` });
        try {
          const { message } = await executeEmailCampaign(id, actor);
          return redirectWithToast(here, { message: `${say(message)}: ${campaign.name}` });
        } catch (error) {
          // saved, but it could not start: the form stays open and says why
          return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
        }
      }
      case "execute":
        try {
          const { message } = await executeEmailCampaign(id, actor);
          return redirectWithToast(back, { message: say(message) });
        } catch (error) {
          return failed(M.executeFailed, error);
        }
      case "pause":
        try {
          await pauseEmailCampaign(id, actor);
          return redirectWithToast(back, { message: say(M.campaignPaused) });
        } catch (error) {
          return failed(M.pauseFailed, error);
        }
      case "unschedule":
        try {
          await unscheduleEmailCampaign(id, actor);
          return redirectWithToast(back, { message: say(M.campaignUnscheduled) });
        } catch (error) {
          return failed(M.updateFailed, error);
        }
      case "delete":
        try {
          await deleteEmailCampaign(id, actor);
          return redirectWithToast(back === here ? LIST : back, { message: say(M.campaignDeleted) });
        } catch (error) {
          return failed(M.deleteFailed, error);
        }
      default:
        throw new Response("Unknown action", { status: 400 });
    }
  });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.campaign.pageTitle", { name: data?.campaign.name ?? t("admin.email.colCampaign") }),
    noindex: true,
  });
};

export default function EmailCampaign() {
  const { campaign, runs, openRun, failures, retrying, preview, dialog } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, message } = useI18n();
  const location = useLocation();
  const here = location.pathname;
  const live = campaign.status === "sending" || openRun?.status === "waiting";
  useLiveRefresh(live && !dialog, campaign.status === "sending" ? 1500 : 5000);
  const schedule =
    campaign.schedule_type === "immediate"
      ? t("admin.email.scheduleImmediate")
      : campaign.schedule_type === "scheduled"
        ? t("admin.email.at", { at: formatDateTime(campaign.scheduled_at) })
        : t("admin.email.patternFrom", {
            pattern: campaign.recurring_pattern ? recurringLabel(t, campaign.recurring_pattern) : t("admin.email.scheduleRecurring"),
            from: formatDateTime(campaign.scheduled_at),
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
              ? t("admin.campaign.starts", { at: formatDateTime(campaign.next_run_at) })
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
            <dd>{formatDateTime(campaign.next_run_at)}</dd>
          </>
        ) : null}
        <dt>{t("admin.categoryForm.created")}</dt>
        <dd>
          {formatDateTime(campaign.created_at)}
          {campaign.created_by_name ? ` ${t("admin.email.by", { name: campaign.created_by_name })}` : ""}
        </dd>
      </dl>

      {runs.length > 0 ? (
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
      ) : null}

      {failures.length > 0 ? (
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
      ) : null}

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

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
