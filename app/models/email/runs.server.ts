/**
 * Campaign runs: one sending of a campaign, its audience fixed at its start, and its counters (docs/decisions/018-email-campaigns.md).
 */
import { sql, type Selectable } from "kysely";
import type { DB } from "~/lib/db.server";
import type { CampaignRunStatus, CampaignStatus, EmailCampaignRunsTable, RecipientType } from "../../../db/schema";
import { totalsOf, type SendTotals } from "./campaigns.server";
import { parseVariables } from "./templates.server";

export type CampaignRun = {
  id: number;
  campaignId: number;
  seq: number;
  scheduledFor: number;
  status: CampaignRunStatus;
  recipientType: RecipientType;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  variables: Record<string, string>;
  totals: SendTotals;
  outageCount: number;
  pauseReason: string | null;
  resumeAt: number | null;
  startedAt: string;
  pausedAt: string | null;
  finishedAt: string | null;
};

function toRun(row: Selectable<EmailCampaignRunsTable>): CampaignRun {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    seq: row.seq,
    scheduledFor: row.scheduled_for,
    status: row.status,
    recipientType: row.recipient_type,
    subject: row.subject,
    htmlContent: row.html_content,
    textContent: row.text_content,
    variables: parseVariables(row.template_variables),
    totals: totalsOf({
      total: row.total_recipients,
      sent: row.sent_count,
      failed: row.failed_count,
      skipped: row.skipped_count,
      uncertain: row.uncertain_count,
    }),
    outageCount: row.outage_count,
    pauseReason: row.pause_reason,
    resumeAt: row.resume_at,
    startedAt: row.started_at,
    pausedAt: row.paused_at,
    finishedAt: row.finished_at,
  };
}

export async function findRun(db: DB, id: number): Promise<CampaignRun | undefined> {
  const row = await db.selectFrom("email_campaign_runs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRun(row);
}

export async function listRuns(db: DB, campaignId: number): Promise<CampaignRun[]> {
  const rows = await db
    .selectFrom("email_campaign_runs")
    .selectAll()
    .where("campaign_id", "=", campaignId)
    .orderBy("seq", "desc")
    .execute();
  return rows.map(toRun);
}

/** The run of a campaign that is not finished (sending, paused or waiting), if any. */
export async function openRunOfCampaign(db: DB, campaignId: number): Promise<CampaignRun | undefined> {
  const row = await db
    .selectFrom("email_campaign_runs")
    .selectAll()
    .where("campaign_id", "=", campaignId)
    .where("status", "in", ["sending", "paused", "waiting"])
    .orderBy("seq", "desc")
    .executeTakeFirst();
  return row && toRun(row);
}

export async function runsWithStatus(db: DB, statuses: readonly CampaignRunStatus[]): Promise<CampaignRun[]> {
  const rows = await db.selectFrom("email_campaign_runs").selectAll().where("status", "in", statuses).execute();
  return rows.map(toRun);
}

const isoCutoff = (days: number, now: number) => new Date(now - days * 24 * 60 * 60_000).toISOString();

/**
 * Users a campaign may reach now: a verified e-mail that can receive mail (never under the
 * reserved `.invalid` domain of RFC 2606, which the demo accounts use), not unsubscribed,
 * and the activity asked for.
 */
function audienceQuery(db: DB, recipientType: RecipientType, activeDays: number, now: number) {
  let query = db
    .selectFrom("users as u")
    .where("u.email_verified", "=", 1)
    .where("u.email", "not like", "%.invalid")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("email_unsubscribes as x").select("x.user_id").whereRef("x.user_id", "=", "u.id"))));
  const cutoff = isoCutoff(activeDays, now);
  if (recipientType === "active") query = query.where("u.last_login_at", ">=", cutoff);
  if (recipientType === "inactive")
    query = query.where((eb) => eb.or([eb("u.last_login_at", "is", null), eb("u.last_login_at", "<", cutoff)]));
  return query;
}

export async function countAudience(db: DB, recipientType: RecipientType, activeDays: number, now = Date.now()): Promise<number> {
  const row = await audienceQuery(db, recipientType, activeDays, now)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type NewRun = {
  campaignId: number;
  /** the campaign must be in one of these statuses; it becomes `sending` in the same transaction */
  campaignFrom: readonly CampaignStatus[];
  /** the campaign's next occurrence after this one (recurring), else null */
  nextRunAt: number | null;
  scheduledFor: number;
  recipientType: RecipientType;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  variables: Record<string, string>;
  activeDays: number;
  now: number;
};

class NotCreated extends Error {}

/**
 * Starts one occurrence of a campaign, in one transaction: the campaign becomes
 * `sending` (only from `campaignFrom`), the run is created with its content, and its
 * audience is fixed now (one pending log row per recipient). Answers undefined, changing
 * nothing, when the campaign's status was another or the occurrence already has its run.
 */
export async function createRun(db: DB, input: NewRun): Promise<CampaignRun | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("email_campaigns")
        .set({ status: "sending", next_run_at: input.nextRunAt, updated_at: new Date(input.now).toISOString() })
        .where("id", "=", input.campaignId)
        .where("status", "in", input.campaignFrom)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw new NotCreated();
      const { seq } = await trx
        .selectFrom("email_campaign_runs")
        .select((eb) => eb(eb.fn.coalesce(eb.fn.max("seq"), sql<number>`0`), "+", 1).as("seq"))
        .where("campaign_id", "=", input.campaignId)
        .executeTakeFirstOrThrow();
      const inserted = await trx
        .insertInto("email_campaign_runs")
        .values({
          campaign_id: input.campaignId,
          seq: Number(seq),
          scheduled_for: input.scheduledFor,
          status: "sending",
          recipient_type: input.recipientType,
          subject: input.subject,
          html_content: input.htmlContent,
          text_content: input.textContent,
          template_variables: JSON.stringify(input.variables),
          started_at: new Date(input.now).toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!inserted) throw new NotCreated();
      const audience = audienceQuery(trx, input.recipientType, input.activeDays, input.now).select([
        sql<number>`${inserted.id}`.as("run_id"),
        sql<number>`${input.campaignId}`.as("campaign_id"),
        "u.id as user_id",
      ]);
      const added = await trx
        .insertInto("email_sends")
        .columns(["run_id", "campaign_id", "user_id"])
        .expression(audience.orderBy("u.id"))
        .executeTakeFirst();
      await trx
        .updateTable("email_campaign_runs")
        .set({ total_recipients: Number(added.numInsertedOrUpdatedRows ?? 0) })
        .where("id", "=", inserted.id)
        .execute();
      const row = await trx.selectFrom("email_campaign_runs").selectAll().where("id", "=", inserted.id).executeTakeFirstOrThrow();
      return toRun(row);
    });
  } catch (error) {
    if (error instanceof NotCreated) return undefined;
    throw error;
  }
}

export type RunUpdate = Partial<{
  status: CampaignRunStatus;
  pauseReason: string | null;
  resumeAt: number | null;
  pausedAt: string | null;
  finishedAt: string | null;
  outageCount: number;
}>;

/** Updates a run whose status is one of `from` (a compare-and-set); false otherwise. */
export async function updateRun(db: DB, id: number, from: readonly CampaignRunStatus[], values: RunUpdate): Promise<boolean> {
  const result = await db
    .updateTable("email_campaign_runs")
    .set(runColumns(values))
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A run and its campaign change status together (one transaction, each a compare-and-set):
 * a sending campaign always has a sending run, a paused one a paused or waiting run.
 * False, changing nothing, when the run (or, unless `campaignOptional`, the campaign) was
 * in another status.
 */
export async function transition(
  db: DB,
  input: {
    runId: number;
    runFrom: readonly CampaignRunStatus[];
    run: RunUpdate;
    campaignId: number;
    campaignFrom: readonly CampaignStatus[];
    campaignTo: CampaignStatus;
    campaignOptional?: boolean;
  },
): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const run = await trx
        .updateTable("email_campaign_runs")
        .set(runColumns(input.run))
        .where("id", "=", input.runId)
        .where("status", "in", input.runFrom)
        .executeTakeFirst();
      if (Number(run.numUpdatedRows) === 0) throw new NotCreated();
      const campaign = await trx
        .updateTable("email_campaigns")
        .set({ status: input.campaignTo, updated_at: new Date().toISOString() })
        .where("id", "=", input.campaignId)
        .where("status", "in", input.campaignFrom)
        .executeTakeFirst();
      if (Number(campaign.numUpdatedRows) === 0 && !input.campaignOptional) throw new NotCreated();
      return true;
    });
  } catch (error) {
    if (error instanceof NotCreated) return false;
    throw error;
  }
}

function runColumns(values: RunUpdate) {
  return {
    ...(values.status !== undefined ? { status: values.status } : {}),
    ...(values.pauseReason !== undefined ? { pause_reason: values.pauseReason } : {}),
    ...(values.resumeAt !== undefined ? { resume_at: values.resumeAt } : {}),
    ...(values.pausedAt !== undefined ? { paused_at: values.pausedAt } : {}),
    ...(values.finishedAt !== undefined ? { finished_at: values.finishedAt } : {}),
    ...(values.outageCount !== undefined ? { outage_count: values.outageCount } : {}),
  };
}
