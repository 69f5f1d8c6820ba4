import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminDialog } from "~/components/admin/dialog";
import { CampaignActions, CampaignForm, DeleteCampaignForm, ExecuteCampaignForm } from "~/components/admin/email/email-forms";
import { CampaignProgress, CampaignStatusBadge, EmailErrorView, LiveNote, useLiveRefresh } from "~/components/admin/email/email-parts";
import { formatDate, formatDateTime } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { replyWithApiError } from "~/lib/forms.server";
import { listAddress, listParams } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { campaignInputSchema, campaignListQuerySchema } from "~/schemas/email";
import {
  CAMPAIGN_STATUSES,
  CAMPAIGNS_PAGE_SIZE,
  EMAIL_MESSAGES as M,
  type CampaignStatus,
  type RecurringPattern,
} from "~/schemas/email-rules";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { useI18n, type Translate } from "~/i18n/i18n";
import { campaignStatusLabel, recipientLabel, recurringLabel } from "~/components/admin/email/email-parts";
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
import { AdminList, AdminSegments } from "~/components/admin/admin-list";

/** The campaigns tab: list with live progress, create in a dialog, execute and delete confirmations. */
const PATH = "/admin/email-management/campaigns";
const DIALOG_PARAMS = ["modal", "campaignId", "templateId"];
const listHref = (params: URLSearchParams, extra: Record<string, string> = {}) => listAddress(PATH, params, DIALOG_PARAMS, extra);
const detailPath = (id: number) => `${PATH}/${id}`;

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
    const submission = parseWithZod(formData, { schema: campaignInputSchema });
    if (submission.status !== "success") return { intent: "create", result: submission.reply() } satisfies ActionData;
    let campaign;
    try {
      campaign = await createEmailCampaign(submission.value, actor);
    } catch (error) {
      return { intent: "create", result: replyWithApiError(submission, error) } satisfies ActionData;
    }
    if (formData.get("then") !== "start")
      return redirectWithToast(detailPath(campaign.id), { message: `${say(M.campaignCreated)}: ${campaign.name}` });
    // "Send now" / "Schedule" in the same step: no draft left that still needs Execute
    try {
      const { message } = await executeEmailCampaign(campaign.id, actor);
      return redirectWithToast(detailPath(campaign.id), { message: `${say(message)}: ${campaign.name}` });
    } catch (error) {
      // it could not start (a time in the past, nothing to send): the draft made a moment ago
      // goes again and the form shows why, with everything typed still in it
      await deleteEmailCampaign(campaign.id, actor).catch(() => undefined);
      return { intent: "create", result: replyWithApiError(submission, error) } satisfies ActionData;
    }
  });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.email.campaignsPageTitle", noindex: true });

function scheduleText(
  t: Translate,
  campaign: {
    schedule_type: string;
    scheduled_at: string | null;
    recurring_pattern: RecurringPattern | null;
    next_run_at: string | null;
  },
) {
  if (campaign.schedule_type === "immediate") return t("admin.email.scheduleImmediate");
  if (campaign.schedule_type === "scheduled") return t("admin.email.at", { at: formatDateTime(campaign.scheduled_at) });
  const pattern = campaign.recurring_pattern ? recurringLabel(t, campaign.recurring_pattern) : t("admin.email.scheduleRecurring");
  if (campaign.next_run_at) return t("admin.email.nextRun", { pattern, at: formatDateTime(campaign.next_run_at) });
  return t("admin.email.patternFrom", {
    pattern,
    from: campaign.scheduled_at ? formatDateTime(campaign.scheduled_at) : t("admin.email.whenExecuted"),
  });
}

const FILTERS: Array<CampaignStatus | undefined> = [undefined, ...CAMPAIGN_STATUSES];

export default function EmailCampaigns() {
  const { query, list, dialog } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { t, message } = useI18n();
  const closeHref = listHref(searchParams);
  const sending = list.items.some((c) => c.status === "sending");
  useLiveRefresh(sending && !dialog);

  return (
    <AdminList
      sectionId="campaigns-title"
      title={t("admin.email.tabCampaigns")}
      count={list.totalItems}
      toolbar={
        <Link to={listHref(searchParams, { modal: "create" })} className="button" preventScrollReset>
          {t("admin.email.newCampaign")}
        </Link>
      }
      filters={
        <AdminSegments
          label={t("admin.email.filterByStatus")}
          segments={FILTERS.map((value) => ({
            key: value ?? "all",
            href: value ? `${PATH}?status=${value}` : PATH,
            current: query.status === value,
            label: value ? campaignStatusLabel(t, value) : t("admin.users.filterAll"),
          }))}
        />
      }
      notice={<LiveNote active={sending} />}
      items={list.items}
      itemKey={(campaign) => campaign.id}
      rowAttributes={(campaign) => ({ "data-campaign-id": campaign.id })}
      tableClassName="email-campaigns"
      empty={
        <EmptyState
          title={
            query.status
              ? t("admin.email.noCampaignsOf", { status: campaignStatusLabel(t, query.status).toLowerCase() })
              : t("admin.email.noCampaigns")
          }
        >
          <p>{t("admin.email.noCampaignsHint")}</p>
        </EmptyState>
      }
      columns={[
        {
          header: t("admin.email.colCampaign"),
          className: "admin-table__wrap",
          cell: (campaign) => (
            <>
              <Link to={detailPath(campaign.id)}>
                <strong>{campaign.name}</strong>
              </Link>
              <span className="admin-user-cell__meta">{campaign.subject}</span>
              {campaign.template_name ? (
                <span className="admin-user-cell__meta">{t("admin.email.templateName", { name: campaign.template_name })}</span>
              ) : null}
            </>
          ),
        },
        { header: t("admin.blogPost.status"), cell: (campaign) => <CampaignStatusBadge status={campaign.status} /> },
        { header: t("admin.emailForms.recipients"), cell: (campaign) => recipientLabel(t, campaign.recipient_type) },
        { header: t("admin.emailForms.schedule"), cell: (campaign) => scheduleText(t, campaign) },
        {
          header: t("admin.email.colProgress"),
          cell: (campaign) =>
            campaign.run_count > 0 ? (
              <CampaignProgress
                compact
                numbers={{
                  total: campaign.total_recipients,
                  sent: campaign.sent_count,
                  failed: campaign.failed_count,
                  pending: campaign.pending_count,
                  skipped: campaign.skipped_count,
                }}
              />
            ) : (
              <span className="muted">{t("admin.email.notStarted")}</span>
            ),
        },
        { header: t("admin.categoryForm.created"), cell: (campaign) => formatDate(campaign.created_at) },
      ]}
      actions={(campaign) => (
        <CampaignActions
          campaign={campaign}
          action={detailPath(campaign.id)}
          returnTo={closeHref}
          showView
          hrefs={{
            execute: listHref(searchParams, { modal: "execute", campaignId: String(campaign.id) }),
            edit: `${detailPath(campaign.id)}?modal=edit`,
            delete: listHref(searchParams, { modal: "delete", campaignId: String(campaign.id) }),
          }}
        />
      )}
      paging={{
        currentPage: list.currentPage,
        totalPages: list.totalPages,
        searchParams: listParams(searchParams, DIALOG_PARAMS),
        label: t("admin.email.campaignPages"),
      }}
    >
      {dialog?.kind === "create" ? (
        <AdminDialog id="create-campaign" title={t("admin.email.newCampaign")} closeTo={closeHref} wide>
          <CampaignForm
            id="create-campaign-form"
            intent="create"
            templates={dialog.templates}
            audience={dialog.audience}
            defaults={{ templateId: dialog.templateId }}
            lastResult={actionData?.intent === "create" ? actionData.result : undefined}
            submitLabel={t("admin.email.createCampaign")}
            cancelTo={closeHref}
            withStart
          />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "execute" ? (
        <AdminDialog id="execute-campaign" title={t("admin.email.executeCampaign")} closeTo={closeHref}>
          {dialog.campaign ? (
            <ExecuteCampaignForm
              campaign={dialog.campaign}
              audience={dialog.audience}
              action={detailPath(dialog.campaign.id)}
              returnTo={closeHref}
              cancelTo={closeHref}
            />
          ) : (
            <p role="alert">{message(M.campaignNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-campaign" title={t("admin.emailForms.deleteCampaign")} closeTo={closeHref}>
          {dialog.campaign ? (
            <DeleteCampaignForm
              campaign={dialog.campaign}
              action={detailPath(dialog.campaign.id)}
              returnTo={closeHref}
              cancelTo={closeHref}
            />
          ) : (
            <p role="alert">{message(M.campaignNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
