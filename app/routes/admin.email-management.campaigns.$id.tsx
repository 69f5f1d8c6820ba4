import { readZonedTimes } from "~/services/site-settings.server";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { CampaignDetailPage } from "~/components/admin/email/campaign-detail";
import { EmailErrorView } from "~/components/admin/email/email-parts";
import { isNotFound, orPageNotFound, pageId, pageNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { campaignInputSchema } from "~/schemas/email";
import { EMAIL_MESSAGES as M } from "~/schemas/email-rules";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { translatorFor } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";
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
        const asTyped = await readZonedTimes(request, formData, ["scheduled_at"]);
        const submission = parseWithZod(formData, { schema: campaignInputSchema });
        asTyped(submission);
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
  return <CampaignDetailPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
