/**
 * E-mail campaigns: what is sent to whom and when, with the totals of their send log (docs/decisions/018-email-campaigns.md).
 */
import { sql, type Selectable } from "kysely";
import type { DB } from "~/lib/db.server";
import type { CampaignStatus, EmailCampaignsTable, RecipientType, RecurringPattern, ScheduleType } from "../../../db/schema";

export type SendTotals = { total: number; sent: number; failed: number; skipped: number; uncertain: number; pending: number };

export type Campaign = {
  id: number;
  name: string;
  templateId: number | null;
  templateName: string | null;
  subject: string;
  htmlContent: string | null;
  textContent: string | null;
  recipientType: RecipientType;
  scheduleType: ScheduleType;
  scheduledAt: string | null;
  recurringPattern: RecurringPattern | null;
  status: CampaignStatus;
  nextRunAt: number | null;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
  /** over every run */
  totals: SendTotals;
  runCount: number;
};

type CampaignRow = Selectable<EmailCampaignsTable> & {
  template_name: string | null;
  created_by_name: string | null;
  run_count: number;
  total: number | null;
  sent: number | null;
  failed: number | null;
  skipped: number | null;
  uncertain: number | null;
};

export const totalsOf = (row: {
  total: number | null;
  sent: number | null;
  failed: number | null;
  skipped: number | null;
  uncertain: number | null;
}): SendTotals => {
  const total = Number(row.total ?? 0);
  const sent = Number(row.sent ?? 0);
  const failed = Number(row.failed ?? 0);
  const skipped = Number(row.skipped ?? 0);
  return { total, sent, failed, skipped, uncertain: Number(row.uncertain ?? 0), pending: Math.max(0, total - sent - failed - skipped) };
};

function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    name: row.name,
    templateId: row.template_id,
    templateName: row.template_name,
    subject: row.subject,
    htmlContent: row.html_content,
    textContent: row.text_content,
    recipientType: row.recipient_type,
    scheduleType: row.schedule_type,
    scheduledAt: row.scheduled_at,
    recurringPattern: row.recurring_pattern,
    status: row.status,
    nextRunAt: row.next_run_at,
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    totals: totalsOf(row),
    runCount: Number(row.run_count),
  };
}

function campaignQuery(db: DB) {
  const runs = db
    .selectFrom("email_campaign_runs")
    .select((eb) => [
      "campaign_id",
      eb.fn.countAll<number>().as("run_count"),
      eb.fn.sum<number>("total_recipients").as("total"),
      eb.fn.sum<number>("sent_count").as("sent"),
      eb.fn.sum<number>("failed_count").as("failed"),
      eb.fn.sum<number>("skipped_count").as("skipped"),
      eb.fn.sum<number>("uncertain_count").as("uncertain"),
    ])
    .groupBy("campaign_id")
    .as("r");
  return db
    .selectFrom("email_campaigns as c")
    .leftJoin("email_templates as t", "t.id", "c.template_id")
    .leftJoin("users as u", "u.id", "c.created_by")
    .leftJoin(runs, "r.campaign_id", "c.id")
    .selectAll("c")
    .select([
      "t.name as template_name",
      "u.username as created_by_name",
      sql<number>`coalesce(r.run_count, 0)`.as("run_count"),
      "r.total",
      "r.sent",
      "r.failed",
      "r.skipped",
      "r.uncertain",
    ]);
}

export async function listCampaigns(
  db: DB,
  options: { page: number; limit: number; status?: CampaignStatus },
): Promise<{ items: Campaign[]; totalItems: number }> {
  let count = db.selectFrom("email_campaigns").select((eb) => eb.fn.countAll<number>().as("n"));
  let query = campaignQuery(db);
  if (options.status) {
    count = count.where("status", "=", options.status);
    query = query.where("c.status", "=", options.status);
  }
  const [{ n }, rows] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    query
      .orderBy("c.id", "desc")
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute(),
  ]);
  return { items: rows.map((row) => toCampaign(row as CampaignRow)), totalItems: Number(n) };
}

export async function findCampaign(db: DB, id: number): Promise<Campaign | undefined> {
  const row = await campaignQuery(db).where("c.id", "=", id).executeTakeFirst();
  return row && toCampaign(row as CampaignRow);
}

export type CampaignValues = {
  name: string;
  templateId: number | null;
  subject: string;
  htmlContent: string | null;
  textContent: string | null;
  recipientType: RecipientType;
  scheduleType: ScheduleType;
  scheduledAt: string | null;
  recurringPattern: RecurringPattern | null;
};

const campaignColumns = (values: CampaignValues) => ({
  name: values.name,
  template_id: values.templateId,
  subject: values.subject,
  html_content: values.htmlContent,
  text_content: values.textContent,
  recipient_type: values.recipientType,
  schedule_type: values.scheduleType,
  scheduled_at: values.scheduledAt,
  recurring_pattern: values.recurringPattern,
});

export async function insertCampaign(db: DB, values: CampaignValues & { createdBy: number | null }): Promise<number> {
  const row = await db
    .insertInto("email_campaigns")
    .values({ ...campaignColumns(values), created_by: values.createdBy })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a campaign that is still a draft; false when it is not (or is gone). */
export async function updateDraftCampaign(db: DB, id: number, values: CampaignValues): Promise<boolean> {
  const result = await db
    .updateTable("email_campaigns")
    .set({ ...campaignColumns(values), updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a campaign unless it is sending (its runs and log go with it); false when refused or gone. */
export async function deleteCampaignUnlessSending(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("email_campaigns").where("id", "=", id).where("status", "!=", "sending").executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Moves a campaign from one of `from` to `to` (a compare-and-set): false when its status was another. */
export async function setCampaignStatus(
  db: DB,
  id: number,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  extra: { nextRunAt?: number | null; scheduledAt?: string | null } = {},
): Promise<boolean> {
  const result = await db
    .updateTable("email_campaigns")
    .set({
      status: to,
      updated_at: new Date().toISOString(),
      ...(extra.nextRunAt !== undefined ? { next_run_at: extra.nextRunAt } : {}),
      ...(extra.scheduledAt !== undefined ? { scheduled_at: extra.scheduledAt } : {}),
    })
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function campaignStatusCounts(db: DB): Promise<Record<CampaignStatus, number>> {
  const rows = await db
    .selectFrom("email_campaigns")
    .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const counts: Record<CampaignStatus, number> = { draft: 0, scheduled: 0, sending: 0, completed: 0, failed: 0, paused: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Scheduled campaigns (their next run is due at next_run_at). */
export async function scheduledCampaigns(db: DB): Promise<Array<{ id: number; nextRunAt: number | null }>> {
  const rows = await db.selectFrom("email_campaigns").select(["id", "next_run_at"]).where("status", "=", "scheduled").execute();
  return rows.map((row) => ({ id: row.id, nextRunAt: row.next_run_at }));
}
