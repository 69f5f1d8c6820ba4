/**
 * E-mail marketing queries: templates, campaigns, runs, the per-recipient send log and
 * unsubscribes (docs/decisions/018-email-campaigns.md). A log row ends (sent, failed,
 * skipped) only in recordWaveAndClaimNext, together with its run's counters in one transaction, so
 * the counters are always the log's counts.
 */
import type SQLite from "better-sqlite3";
import { sql, type Selectable } from "kysely";
import { getSqlite, type DB } from "~/lib/db.server";
import { onPostgres } from "./sql-dialect.server";
import type {
  CampaignRunStatus,
  CampaignStatus,
  EmailCampaignRunsTable,
  EmailCampaignsTable,
  EmailTemplatesTable,
  RecipientType,
  RecurringPattern,
  ScheduleType,
} from "../../db/schema";

// ---------------------------------------------------------------- templates

export type EmailTemplate = {
  id: number;
  name: string;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  /** the template's own variables as text, for filling in */
  variables: Record<string, string>;
  /** the same as they were given (numbers and booleans kept), for the API */
  variableValues: Record<string, VariableValue>;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
  /** campaigns that use it (a template in use cannot be deleted) */
  campaignCount: number;
};

export type VariableValue = string | number | boolean | null;

function parseVariableValues(text: string): Record<string, VariableValue> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as VariableValue) : String(v),
        ]),
      );
    }
  } catch {
    // stored by this app as JSON: an unreadable value reads as none
  }
  return {};
}

/** A variable's text in a message: null is empty. */
function parseVariables(text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(parseVariableValues(text)).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

type TemplateRow = Selectable<EmailTemplatesTable> & { created_by_name: string | null; campaign_count: number };

function toTemplate(row: TemplateRow): EmailTemplate {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    htmlContent: row.html_content,
    textContent: row.text_content,
    variables: parseVariables(row.template_variables),
    variableValues: parseVariableValues(row.template_variables),
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    campaignCount: row.campaign_count,
  };
}

function templateQuery(db: DB) {
  return db
    .selectFrom("email_templates as t")
    .leftJoin("users as u", "u.id", "t.created_by")
    .selectAll("t")
    .select((eb) => [
      "u.username as created_by_name",
      eb
        .selectFrom("email_campaigns as c")
        .whereRef("c.template_id", "=", "t.id")
        .select(eb.fn.countAll<number>().as("n"))
        .as("campaign_count"),
    ]);
}

export async function listTemplates(db: DB): Promise<EmailTemplate[]> {
  const rows = await templateQuery(db).orderBy("t.id", "desc").execute();
  return rows.map((row) => toTemplate(row as TemplateRow));
}

export async function findTemplate(db: DB, id: number): Promise<EmailTemplate | undefined> {
  const row = await templateQuery(db).where("t.id", "=", id).executeTakeFirst();
  return row && toTemplate(row as TemplateRow);
}

export type TemplateValues = {
  name: string;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  variables: Record<string, VariableValue>;
};

export async function insertTemplate(db: DB, values: TemplateValues & { createdBy: number | null }): Promise<number> {
  const row = await db
    .insertInto("email_templates")
    .values({
      name: values.name,
      subject: values.subject,
      html_content: values.htmlContent,
      text_content: values.textContent,
      template_variables: JSON.stringify(values.variables),
      created_by: values.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(db: DB, id: number, values: TemplateValues): Promise<boolean> {
  const result = await db
    .updateTable("email_templates")
    .set({
      name: values.name,
      subject: values.subject,
      html_content: values.htmlContent,
      text_content: values.textContent,
      template_variables: JSON.stringify(values.variables),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTemplate(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("email_templates").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function campaignNamesUsingTemplate(db: DB, templateId: number): Promise<string[]> {
  const rows = await db.selectFrom("email_campaigns").select("name").where("template_id", "=", templateId).orderBy("id").execute();
  return rows.map((row) => row.name);
}

export async function countTemplates(db: DB): Promise<{ total: number; active: number }> {
  const row = await db
    .selectFrom("email_templates as t")
    .select((eb) => [
      eb.fn.countAll<number>().as("total"),
      eb.fn.sum<number>(sql`CASE WHEN EXISTS (SELECT 1 FROM email_campaigns c WHERE c.template_id = t.id) THEN 1 ELSE 0 END`).as("active"),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active ?? 0) };
}

// ---------------------------------------------------------------- campaigns

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

const totalsOf = (row: {
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

// ---------------------------------------------------------------- runs

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

// ---------------------------------------------------------------- the send log

/**
 * Rows a dead process left in flight (`sending` when no sender of this run is alive):
 * back to pending, marked uncertain and counted on the run. Answers how many.
 */
export async function recoverInFlight(db: DB, runId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("email_sends")
      .set({ status: "pending", uncertain: 1, next_attempt_at: 0 })
      .where("run_id", "=", runId)
      .where("status", "in", ["pending", "sending"])
      .where("status", "=", "sending")
      .executeTakeFirst();
    const count = Number(result.numUpdatedRows);
    if (count)
      await trx
        .updateTable("email_campaign_runs")
        .set((eb) => ({ uncertain_count: eb("uncertain_count", "+", count) }))
        .where("id", "=", runId)
        .execute();
    return count;
  });
}

export type ClaimedSend = {
  id: number;
  userId: number | null;
  attempts: number;
  /** the recipient as they are now (null: the account is gone) */
  email: string | null;
  username: string | null;
  verified: boolean;
  unsubscribed: boolean;
};

type ClaimRow = {
  id: number;
  user_id: number | null;
  attempts: number;
  email: string | null;
  username: string | null;
  email_verified: number | null;
  unsubscribed: number;
};

/*
 * The sender's hot path: one transaction records a wave's results and claims the next
 * wave, a hundred times a second. They run as better-sqlite3
 * statements prepared once, synchronously, while kysely's connection is held (so no
 * kysely transaction can be open in between): through the query builder each cost about
 * 0.4 ms of the thread that answers the site, mostly its own bookkeeping.
 */
type SenderStatements = { claim: SQLite.Statement; sent: SQLite.Statement; retry: SQLite.Statement; count: SQLite.Statement };
const preparedSenderStatements = new WeakMap<SQLite.Database, SenderStatements>();

function senderStatements(sqlite: SQLite.Database): SenderStatements {
  let statements = preparedSenderStatements.get(sqlite);
  if (!statements) {
    statements = {
      claim: sqlite.prepare(`
        UPDATE email_sends SET status = 'sending', claimed_at = @now
        WHERE id IN (
          SELECT s.id FROM email_sends s
          -- "status IN (...)" repeats the partial index's own predicate (email_sends_open): SQLite
          -- uses a partial index only when the query names its WHERE terms as written, and
          -- "status = 'pending'" alone does not; on PostgreSQL (claimSends below) it does
          WHERE s.run_id = @runId AND s.status IN ('pending', 'sending') AND s.status = 'pending' AND s.next_attempt_at <= @now
            AND EXISTS (SELECT 1 FROM email_campaign_runs r WHERE r.id = @runId AND r.status = 'sending')
          ORDER BY s.next_attempt_at, s.id
          LIMIT @limit
        )
        RETURNING id, user_id, attempts,
          (SELECT u.email FROM users u WHERE u.id = email_sends.user_id) AS email,
          (SELECT u.username FROM users u WHERE u.id = email_sends.user_id) AS username,
          (SELECT u.email_verified FROM users u WHERE u.id = email_sends.user_id) AS email_verified,
          EXISTS (SELECT 1 FROM email_unsubscribes x WHERE x.user_id = email_sends.user_id) AS unsubscribed`),
      sent: sqlite.prepare(`
        UPDATE email_sends
        SET status = @status, email = @email, last_error = @error, attempts = attempts + @attemptsAdded, finished_at = @finishedAt
        WHERE id = @id AND status = 'sending'`),
      retry: sqlite.prepare(`
        UPDATE email_sends SET status = 'pending', attempts = attempts + 1, last_error = @error, next_attempt_at = @nextAttemptAt
        WHERE id = @id AND status = 'sending'`),
      count: sqlite.prepare(`
        UPDATE email_campaign_runs
        SET sent_count = sent_count + @sent, failed_count = failed_count + @failed, skipped_count = skipped_count + @skipped
        WHERE id = @runId`),
    };
    preparedSenderStatements.set(sqlite, statements);
  }
  return statements;
}

/** Runs `work` on the raw connection while kysely's is held. */
function withConnection<T>(db: DB, work: (sqlite: SQLite.Database) => T): Promise<T> {
  return db.connection().execute(async () => work(getSqlite()));
}

/** How a claimed row ended: sent, failed for good, skipped, or back to pending for a retry. */
export type SendResult =
  | { id: number; status: "sent" | "failed" | "skipped"; email: string | null; error?: string | null; attemptsAdded: number }
  | { id: number; status: "retry"; error: string; nextAttemptAt: number };

/**
 * One transaction, the sender's only write: records a wave's results (only rows still in
 * flight change, and the run's counters by as many), then
 * takes up to `limit` due pending rows of a run that is still sending, in order, and marks
 * them in flight. Each new recipient is read in the same statement, so an unsubscribe
 * recorded before it is always seen. Recording one wave and claiming the next together
 * writes their shared pages once, and the rows in flight never outnumber the wave.
 */
export function recordWaveAndClaimNext(
  db: DB,
  input: { results: SendResult[]; runId: number; now: number; limit: number },
): Promise<ClaimedSend[]> {
  if (onPostgres(db)) return recordWaveAndClaimNextPostgres(db, input);
  const finishedAt = new Date(input.now).toISOString();
  return withConnection(db, (sqlite) => {
    const statements = senderStatements(sqlite);
    const claimed = sqlite
      .transaction(() => {
        const ended = { sent: 0, failed: 0, skipped: 0 };
        for (const result of input.results) {
          if (result.status === "retry") {
            statements.retry.run({ id: result.id, error: result.error, nextAttemptAt: result.nextAttemptAt });
          } else if (
            statements.sent.run({
              id: result.id,
              status: result.status,
              email: result.email,
              error: result.error ?? null,
              attemptsAdded: result.attemptsAdded,
              finishedAt,
            }).changes
          ) {
            ended[result.status] += 1;
          }
        }
        if (ended.sent || ended.failed || ended.skipped) statements.count.run({ runId: input.runId, ...ended });
        return input.limit > 0 ? (statements.claim.all({ runId: input.runId, now: input.now, limit: input.limit }) as ClaimRow[]) : [];
        // the write lock first, waiting for it (db/connection.ts ImmediateSqliteDriver)
      })
      .immediate();
    return claimed.map(toClaimedSend).sort((a, b) => a.id - b.id);
  });
}

const toClaimedSend = (row: ClaimRow): ClaimedSend => ({
  id: row.id,
  userId: row.user_id,
  attempts: row.attempts,
  email: row.email,
  username: row.username,
  verified: row.email_verified === 1,
  unsubscribed: row.unsubscribed === 1,
});

/**
 * recordWaveAndClaimNext() on PostgreSQL: the same transaction through kysely. Many instances may
 * claim rows of one run at once: each takes rows no other transaction holds
 * (FOR UPDATE SKIP LOCKED), so no row is claimed twice.
 */
async function recordWaveAndClaimNextPostgres(
  db: DB,
  input: { results: SendResult[]; runId: number; now: number; limit: number },
): Promise<ClaimedSend[]> {
  const finishedAt = new Date(input.now).toISOString();
  const claimed = await db.transaction().execute(async (trx) => {
    const ended = { sent: 0, failed: 0, skipped: 0 };
    for (const result of input.results) {
      if (result.status === "retry") {
        await trx
          .updateTable("email_sends")
          .set((eb) => ({
            status: "pending",
            attempts: eb("attempts", "+", 1),
            last_error: result.error,
            next_attempt_at: result.nextAttemptAt,
          }))
          .where("id", "=", result.id)
          .where("status", "=", "sending")
          .execute();
        continue;
      }
      const { numUpdatedRows } = await trx
        .updateTable("email_sends")
        .set((eb) => ({
          status: result.status,
          email: result.email,
          last_error: result.error ?? null,
          attempts: eb("attempts", "+", result.attemptsAdded),
          finished_at: finishedAt,
        }))
        .where("id", "=", result.id)
        .where("status", "=", "sending")
        .executeTakeFirstOrThrow();
      if (numUpdatedRows > 0n) ended[result.status] += 1;
    }
    if (ended.sent || ended.failed || ended.skipped) {
      await trx
        .updateTable("email_campaign_runs")
        .set((eb) => ({
          sent_count: eb("sent_count", "+", ended.sent),
          failed_count: eb("failed_count", "+", ended.failed),
          skipped_count: eb("skipped_count", "+", ended.skipped),
        }))
        .where("id", "=", input.runId)
        .execute();
    }
    if (input.limit <= 0) return [];
    const { rows } = await sql<ClaimRow>`UPDATE email_sends SET status = 'sending', claimed_at = ${input.now}
      WHERE id IN (
        SELECT s.id FROM email_sends s
        WHERE s.run_id = ${input.runId} AND s.status = 'pending' AND s.next_attempt_at <= ${input.now}
          AND EXISTS (SELECT 1 FROM email_campaign_runs r WHERE r.id = ${input.runId} AND r.status = 'sending')
        ORDER BY s.next_attempt_at, s.id
        LIMIT ${input.limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, user_id, attempts,
        (SELECT u.email FROM users u WHERE u.id = email_sends.user_id) AS email,
        (SELECT u.username FROM users u WHERE u.id = email_sends.user_id) AS username,
        (SELECT u.email_verified FROM users u WHERE u.id = email_sends.user_id) AS email_verified,
        CASE WHEN EXISTS (SELECT 1 FROM email_unsubscribes x WHERE x.user_id = email_sends.user_id) THEN 1 ELSE 0 END AS unsubscribed`.execute(
      trx,
    );
    return rows;
  });
  return claimed.map(toClaimedSend).sort((a, b) => a.id - b.id);
}

/** The relay answered again after an outage: the next outage waits the shortest time again. */
export async function resetOutages(db: DB, runId: number): Promise<void> {
  await db.updateTable("email_campaign_runs").set({ outage_count: 0 }).where("id", "=", runId).where("outage_count", ">", 0).execute();
}

/** What is left of a run: rows still pending or in flight, and the earliest retry time. */
export async function openSends(db: DB, runId: number): Promise<{ open: number; inFlight: number; nextAttemptAt: number | null }> {
  const row = await db
    .selectFrom("email_sends")
    .select((eb) => [
      eb.fn.countAll<number>().as("open"),
      eb.fn.sum<number>(sql`CASE WHEN status = 'sending' THEN 1 ELSE 0 END`).as("in_flight"),
      eb.fn.min<number>(sql`CASE WHEN status = 'pending' THEN next_attempt_at END`).as("next_attempt_at"),
    ])
    .where("run_id", "=", runId)
    .where("status", "in", ["pending", "sending"])
    .executeTakeFirstOrThrow();
  return {
    open: Number(row.open),
    inFlight: Number(row.in_flight ?? 0),
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
  };
}

export type SendFailure = { userId: number | null; email: string | null; error: string | null; finishedAt: string | null; runSeq: number };

export async function failedSends(db: DB, campaignId: number, limit: number): Promise<SendFailure[]> {
  const rows = await db
    .selectFrom("email_sends as s")
    .innerJoin("email_campaign_runs as r", "r.id", "s.run_id")
    .select(["s.user_id", "s.email", "s.last_error", "s.finished_at", "r.seq"])
    .where("s.campaign_id", "=", campaignId)
    .where("s.status", "=", "failed")
    .orderBy("s.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    error: row.last_error,
    finishedAt: row.finished_at,
    runSeq: row.seq,
  }));
}

/** Rows waiting for a retry after a temporary failure (the reason shown on the campaign page). */
export async function retryingSends(
  db: DB,
  runId: number,
): Promise<{ count: number; lastError: string | null; nextAttemptAt: number | null }> {
  const row = await db
    .selectFrom("email_sends")
    .select((eb) => [
      eb.fn.countAll<number>().as("n"),
      eb.fn.max("last_error").as("last_error"),
      eb.fn.min("next_attempt_at").as("next_attempt_at"),
    ])
    .where("run_id", "=", runId)
    .where("status", "in", ["pending", "sending"])
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.n),
    lastError: (row.last_error as string | null) ?? null,
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
  };
}

/** Every log row by status (the overview's emailLogs). */
export async function sendStatusCounts(db: DB): Promise<{ sent: number; failed: number; pending: number; skipped: number }> {
  const row = await db
    .selectFrom("email_campaign_runs")
    .select((eb) => [
      eb.fn.sum<number>("total_recipients").as("total"),
      eb.fn.sum<number>("sent_count").as("sent"),
      eb.fn.sum<number>("failed_count").as("failed"),
      eb.fn.sum<number>("skipped_count").as("skipped"),
      eb.fn.sum<number>("uncertain_count").as("uncertain"),
    ])
    .executeTakeFirstOrThrow();
  const totals = totalsOf(row);
  return { sent: totals.sent, failed: totals.failed, pending: totals.pending, skipped: totals.skipped };
}

/** Sent and failed messages per UTC day (YYYY-MM-DD) since `fromDay`. */
export async function sendsByDay(db: DB, fromDay: string): Promise<Array<{ day: string; sent: number; failed: number }>> {
  const rows = await db
    .selectFrom("email_sends")
    .select([
      sql<string>`substr(finished_at, 1, 10)`.as("day"),
      sql<number>`count(*) FILTER (WHERE status = 'sent')`.as("sent"),
      sql<number>`count(*) FILTER (WHERE status = 'failed')`.as("failed"),
    ])
    .where("finished_at", ">=", fromDay)
    .where("status", "in", ["sent", "failed"])
    .groupBy(sql`substr(finished_at, 1, 10)`)
    .execute();
  return rows.map((row) => ({ day: row.day, sent: Number(row.sent ?? 0), failed: Number(row.failed ?? 0) }));
}

// ---------------------------------------------------------------- unsubscribes

export async function findUnsubscribe(db: DB, userId: number): Promise<{ createdAt: string } | undefined> {
  const row = await db.selectFrom("email_unsubscribes").select("created_at").where("user_id", "=", userId).executeTakeFirst();
  return row && { createdAt: row.created_at };
}

/** Records an unsubscribe; false when the user had already unsubscribed. */
export async function insertUnsubscribe(db: DB, input: { userId: number; email: string; source: string }): Promise<boolean> {
  const result = await db
    .insertInto("email_unsubscribes")
    .values({ user_id: input.userId, email: input.email, source: input.source })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteUnsubscribe(db: DB, userId: number): Promise<boolean> {
  const result = await db.deleteFrom("email_unsubscribes").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countUnsubscribes(db: DB): Promise<number> {
  const row = await db
    .selectFrom("email_unsubscribes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
