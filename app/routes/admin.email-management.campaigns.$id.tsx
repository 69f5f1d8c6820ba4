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
import { EMAIL_MESSAGES as M, RECIPIENT_LABELS, RECURRING_LABELS, SCHEDULE_LABELS } from "~/schemas/email-rules";
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
    const failed = (prefix: string, error: unknown) => {
      if (isServiceError(error)) return redirectWithToast(back, { type: "error", message: `${prefix}: ${error.message}` });
      throw error;
    };

    switch (intent) {
      case "update": {
        // the status first: a campaign that is not a draft says so ('只有草稿状态的活动可以编辑'), whatever the form holds
        try {
          await editableEmailCampaign(id);
        } catch (error) {
          if (isServiceError(error) && error.status === 400) return redirectWithToast(here, { type: "error", message: M.editDraftOnly });
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
        if (formData.get("then") !== "start") return redirectWithToast(here, { message: `${M.campaignUpdated}: ${campaign.name}` });
        try {
          const { message } = await executeEmailCampaign(id, actor);
          return redirectWithToast(here, { message: `${message}: ${campaign.name}` });
        } catch (error) {
          // saved, but it could not start: the form stays open and says why
          return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
        }
      }
      case "execute":
        try {
          const { message } = await executeEmailCampaign(id, actor);
          return redirectWithToast(back, { message });
        } catch (error) {
          return failed(M.executeFailed, error);
        }
      case "pause":
        try {
          await pauseEmailCampaign(id, actor);
          return redirectWithToast(back, { message: M.campaignPaused });
        } catch (error) {
          return failed(M.pauseFailed, error);
        }
      case "unschedule":
        try {
          await unscheduleEmailCampaign(id, actor);
          return redirectWithToast(back, { message: M.campaignUnscheduled });
        } catch (error) {
          return failed(M.updateFailed, error);
        }
      case "delete":
        try {
          await deleteEmailCampaign(id, actor);
          return redirectWithToast(back === here ? LIST : back, { message: M.campaignDeleted });
        } catch (error) {
          return failed(M.deleteFailed, error);
        }
      default:
        throw new Response("Unknown action", { status: 400 });
    }
  });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: `${data?.campaign.name ?? "Campaign"} · Email · Admin`, noindex: true });

export default function EmailCampaign() {
  const { campaign, runs, openRun, failures, retrying, preview, dialog } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const here = location.pathname;
  const live = campaign.status === "sending" || openRun?.status === "waiting";
  useLiveRefresh(live && !dialog, campaign.status === "sending" ? 1500 : 5000);
  const schedule =
    campaign.schedule_type === "immediate"
      ? SCHEDULE_LABELS.immediate
      : campaign.schedule_type === "scheduled"
        ? `At ${formatDateTime(campaign.scheduled_at)}`
        : `${campaign.recurring_pattern ? RECURRING_LABELS[campaign.recurring_pattern] : "Repeating"} from ${formatDateTime(campaign.scheduled_at)}`;
  const uncertain = campaign.uncertain_count;

  return (
    <section aria-labelledby="campaign-title" className="email-campaign">
      <p className="admin-breadcrumb">
        <Link to={LIST}>← Campaigns</Link>
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
          {openRun.pause_reason}
          {openRun.status === "waiting" ? " Resume to try now." : " Resume to go on with the next recipient: nobody gets it twice."}
        </p>
      ) : null}
      {retrying ? (
        <p className="notice" role="status">
          {retrying.count} recipient{retrying.count === 1 ? " is" : "s are"} waiting for a retry after a temporary failure
          {retrying.lastError ? ` (${retrying.lastError})` : ""}; next try {formatDateTime(retrying.nextAttemptAt)}. Temporary failures
          never count as failed.
        </p>
      ) : null}
      {uncertain > 0 ? (
        <p className="notice notice--error" role="status">
          {`${uncertain} message${uncertain === 1 ? " was" : "s were"} being sent when the server stopped unexpectedly. They were sent again, so up to ${uncertain} recipient${uncertain === 1 ? "" : "s"} may have this e-mail twice (with the same Message-ID, which many mailboxes use to hide the copy).`}
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
          <p className="muted">{campaign.status === "scheduled" ? `Starts ${formatDateTime(campaign.next_run_at)}.` : "Not sent yet."}</p>
        )}
        <LiveNote active={live} />
      </div>

      <dl className="admin-facts">
        <dt>Subject</dt>
        <dd>{campaign.subject}</dd>
        <dt>Template</dt>
        <dd>{campaign.template_name ?? "None (its own body)"}</dd>
        <dt>Recipients</dt>
        <dd>{RECIPIENT_LABELS[campaign.recipient_type]}</dd>
        <dt>Schedule</dt>
        <dd>{schedule}</dd>
        {campaign.next_run_at ? (
          <>
            <dt>Next run</dt>
            <dd>{formatDateTime(campaign.next_run_at)}</dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>
          {formatDateTime(campaign.created_at)}
          {campaign.created_by_name ? ` by ${campaign.created_by_name}` : ""}
        </dd>
      </dl>

      {runs.length > 0 ? (
        <>
          <h3>Runs</h3>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Finished</th>
                <th scope="col">Recipients</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
                <th scope="col">Pending</th>
                <th scope="col">Skipped</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <td data-label="Run">#{run.seq}</td>
                  <td data-label="Status">{run.status === "waiting" ? "waiting for the relay" : run.status}</td>
                  <td data-label="Started">{formatDateTime(run.started_at)}</td>
                  <td data-label="Finished">{formatDateTime(run.finished_at)}</td>
                  <td data-label="Recipients">{run.total_recipients}</td>
                  <td data-label="Sent">{run.sent_count}</td>
                  <td data-label="Failed">{run.failed_count}</td>
                  <td data-label="Pending">{run.pending_count}</td>
                  <td data-label="Skipped">{run.skipped_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}

      {failures.length > 0 ? (
        <>
          <h3>Failed recipients</h3>
          <p className="muted">The relay refused these addresses for good (a 5xx answer). The newest {failures.length} are listed.</p>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">SMTP answer</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((failure, n) => (
                <tr key={`${failure.email}-${n}`}>
                  <td data-label="Address" className="admin-table__wrap">
                    {failure.email ?? "(account deleted)"}
                  </td>
                  <td data-label="SMTP answer" className="admin-table__wrap">
                    {failure.error}
                  </td>
                  <td data-label="When">
                    {formatDateTime(failure.finishedAt)} (run #{failure.runSeq})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}

      {preview ? (
        <>
          <h3>Preview</h3>
          <p className="muted">
            Subject: <strong>{preview.subject}</strong> (sample values: your name and the site's)
          </p>
          <iframe title={`Preview of ${campaign.name}`} className="email-preview" sandbox="" srcDoc={preview.html} loading="lazy" />
        </>
      ) : (
        <p className="notice">{M.contentRequired}.</p>
      )}

      {dialog?.kind === "edit" ? (
        <AdminDialog id="edit-campaign" title="Edit campaign" closeTo={here} wide>
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
            submitLabel="Save campaign"
            cancelTo={here}
            withStart
          />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "not-editable" ? (
        <AdminDialog id="edit-campaign" title="Edit campaign" closeTo={here}>
          <p className="notice notice--error" role="alert">
            {M.editDraftOnly}
          </p>
          <div className="form-actions">
            <Link to={here} className="button button--secondary" preventScrollReset>
              Close
            </Link>
          </div>
        </AdminDialog>
      ) : null}

      {dialog?.kind === "execute" ? (
        <AdminDialog id="execute-campaign" title="Execute campaign" closeTo={here}>
          <ExecuteCampaignForm campaign={campaign} audience={dialog.audience} action={here} returnTo={here} cancelTo={here} />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-campaign" title="Delete campaign" closeTo={here}>
          <DeleteCampaignForm campaign={campaign} action={here} returnTo={here} cancelTo={here} />
        </AdminDialog>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
