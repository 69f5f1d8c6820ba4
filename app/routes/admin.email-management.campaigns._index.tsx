import { readZonedTimes } from "~/services/site-settings.server";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { CampaignListPage, campaignPath } from "~/components/admin/email/campaign-list";
import { EmailErrorView } from "~/components/admin/email/email-parts";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { campaignInputSchema, campaignListQuerySchema } from "~/schemas/email";
import { CAMPAIGNS_PAGE_SIZE, EMAIL_MESSAGES as M } from "~/schemas/email-rules";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import {
  audienceCounts,
  campaignJson,
  createEmailCampaign,
  deleteEmailCampaign,
  EMAIL_ACCESS,
  executeEmailCampaign,
  getEmailCampaign,
  listEmailCampaigns,
  listEmailTemplates,
} from "~/services/email.server";
import { nullIfNotFound } from "~/lib/api.server";
import { idOf } from "~/lib/ids";

/** The campaigns tab: list with live progress, create in a dialog, execute and delete confirmations. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  const url = new URL(request.url);
  const query = campaignListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const { items, totalItems } = await listEmailCampaigns({ page: query.page, limit: CAMPAIGNS_PAGE_SIZE, status: query.status });

  const modal = url.searchParams.get("modal");
  const campaignId = idOf(url.searchParams.get("campaignId"));
  let dialog:
    | {
        kind: "create";
        templates: Array<{ id: number; name: string }>;
        audience: Awaited<ReturnType<typeof audienceCounts>>;
        templateId: number | null;
      }
    | { kind: "execute" | "delete"; campaign: ReturnType<typeof campaignJson> | null; audience: number }
    | null = null;
  if (modal === "create") {
    const [templates, audience] = await Promise.all([listEmailTemplates(), audienceCounts()]);
    const templateId = idOf(url.searchParams.get("templateId"));
    dialog = {
      kind: "create",
      templates: templates.map(({ id, name }) => ({ id, name })),
      audience,
      templateId: templates.some((t) => t.id === templateId) ? templateId : null,
    };
  } else if (modal === "execute" || modal === "delete") {
    const campaign = campaignId !== null ? await nullIfNotFound(getEmailCampaign(campaignId)) : null;
    const audience = campaign && modal === "execute" ? (await audienceCounts())[campaign.recipientType] : 0;
    dialog = { kind: modal, campaign: campaign && campaignJson(campaign), audience };
  }

  return {
    query,
    list: {
      items: items.map(campaignJson),
      totalItems,
      totalPages: Math.max(1, Math.ceil(totalItems / CAMPAIGNS_PAGE_SIZE)),
      currentPage: query.page,
    },
    dialog,
  };
}

type ActionData = { intent: "create"; result: SubmissionResult<string[]> };

/** Creating here; every other campaign action posts to the campaign's own page. */
export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(request, async (actor) => {
    const formData = await request.formData();
    const say = (text: string) => translateMessage(readLanguage(request), text);
    if (formData.get("intent") !== "create") throw new Response("Unknown action", { status: 400 });
    const asTyped = await readZonedTimes(request, formData, ["scheduled_at"]);
    const submission = parseWithZod(formData, { schema: campaignInputSchema });
    asTyped(submission);
    if (submission.status !== "success") return { intent: "create", result: submission.reply() } satisfies ActionData;
    let campaign;
    try {
      campaign = await createEmailCampaign(submission.value, actor);
    } catch (error) {
      return { intent: "create", result: replyWithApiError(submission, error) } satisfies ActionData;
    }
    if (formData.get("then") !== "start")
      return redirectWithToast(campaignPath(campaign.id), { message: `${say(M.campaignCreated)}: ${campaign.name}` });
    // "Send now" / "Schedule" in the same step: no draft left that still needs Execute
    try {
      const { message } = await executeEmailCampaign(campaign.id, actor);
      return redirectWithToast(campaignPath(campaign.id), { message: `${say(message)}: ${campaign.name}` });
    } catch (error) {
      // it could not start (a time in the past, nothing to send): the draft made a moment ago
      // goes again and the form shows why, with everything typed still in it
      await deleteEmailCampaign(campaign.id, actor).catch(() => undefined);
      return { intent: "create", result: replyWithApiError(submission, error) } satisfies ActionData;
    }
  });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.email.campaignsPageTitle", noindex: true });

export default function EmailCampaigns() {
  return <CampaignListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
