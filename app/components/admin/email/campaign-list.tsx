/**
 * The campaigns tab (/admin/email-management/campaigns): the list with its status filter,
 * each campaign's schedule and live progress, and the create, execute and delete dialogs
 * chosen by the URL (decision 007).
 */
import type { SubmissionResult } from "@conform-to/react";
import { Link, useSearchParams } from "@remix-run/react";
import type { z } from "zod";
import { AdminList, AdminSegments } from "~/components/admin/admin-list";
import { AdminDialog } from "~/components/admin/dialog";
import { formatDate } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { useI18n, type Translate } from "~/i18n/i18n";
import { useZonedTime } from "~/components/admin/time-zone";
import { listAddress, listParams } from "~/lib/list-address";
import type { campaignListQuerySchema } from "~/schemas/email";
import {
  CAMPAIGN_STATUSES,
  EMAIL_MESSAGES as M,
  type CampaignStatus,
  type RecipientType,
  type RecurringPattern,
  type ScheduleType,
} from "~/schemas/email-rules";
import { CampaignActions, CampaignForm, DeleteCampaignForm, ExecuteCampaignForm } from "./email-forms";
import {
  CampaignProgress,
  CampaignStatusBadge,
  campaignStatusLabel,
  LiveNote,
  recipientLabel,
  recurringLabel,
  useLiveRefresh,
} from "./email-parts";

const PATH = "/admin/email-management/campaigns";
const DIALOG_PARAMS = ["modal", "campaignId", "templateId"];
const listHref = (params: URLSearchParams, extra: Record<string, string> = {}) => listAddress(PATH, params, DIALOG_PARAMS, extra);

/** A campaign's own page, where its actions post. */
export const campaignPath = (id: number) => `${PATH}/${id}`;

type CampaignRow = {
  id: number;
  name: string;
  subject: string;
  template_name: string | null;
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
  created_at: string;
};

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type CampaignListData = {
  query: z.infer<typeof campaignListQuerySchema>;
  list: { items: CampaignRow[]; totalItems: number; totalPages: number; currentPage: number };
  dialog:
    | { kind: "create"; templates: Array<{ id: number; name: string }>; audience: Record<RecipientType, number>; templateId: number | null }
    | { kind: "execute" | "delete"; campaign: CampaignRow | null; audience: number }
    | null;
};

/** What creating answers when it does not redirect. */
type CampaignListActionData = { intent: "create"; result: SubmissionResult<string[]> };

function scheduleText(
  t: Translate,
  formatDateTime: (iso: string | null | undefined) => string,
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

export function CampaignListPage({ data, actionData }: { data: CampaignListData; actionData?: CampaignListActionData }) {
  const { query, list, dialog } = data;
  const [searchParams] = useSearchParams();
  const { t, message } = useI18n();
  const zoned = useZonedTime();
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
              <Link to={campaignPath(campaign.id)}>
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
        { header: t("admin.emailForms.schedule"), cell: (campaign) => scheduleText(t, zoned.format, campaign) },
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
          action={campaignPath(campaign.id)}
          returnTo={closeHref}
          showView
          hrefs={{
            execute: listHref(searchParams, { modal: "execute", campaignId: String(campaign.id) }),
            edit: `${campaignPath(campaign.id)}?modal=edit`,
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
              action={campaignPath(dialog.campaign.id)}
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
              action={campaignPath(dialog.campaign.id)}
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
