/**
 * E-mail marketing as the back office and /api/email see it (docs/product/admin.md "Email
 * marketing", docs/runtime.md "E-mail marketing"): templates, campaigns and their status
 * rules, statistics, the built-in HTML templates. Sending itself is
 * app/services/campaign-sender.server.ts.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { renderMessage } from "~/lib/email-template";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { Access } from "~/lib/permissions";
import {
  campaignNamesUsingTemplate,
  countTemplates,
  deleteTemplate,
  findTemplate,
  insertTemplate,
  listTemplates,
  updateTemplate,
  type EmailTemplate,
} from "~/models/email/templates.server";
import {
  campaignStatusCounts,
  deleteCampaignUnlessSending,
  findCampaign,
  insertCampaign,
  listCampaigns,
  setCampaignStatus,
  updateDraftCampaign,
  type Campaign,
} from "~/models/email/campaigns.server";
import { countAudience, listRuns, transition, type CampaignRun } from "~/models/email/runs.server";
import { failedSends, retryingSends, sendsByDay, sendStatusCounts, type SendFailure } from "~/models/email/send-log.server";
import { countUnsubscribes } from "~/models/email/unsubscribes.server";
import { findUserById, type User } from "~/models/user.server";
import {
  ACTIVE_DAYS,
  BUILTIN_VARIABLES,
  campaignActions,
  completionIndicator,
  EMAIL_MESSAGES as M,
  FAILED_LIST_LIMIT,
  RECENT_STATS_DAYS,
  successRate,
  variablesIn,
  type CampaignInput,
  type CampaignStatus,
  type PreviewInput,
  type RecipientType,
  type TemplateInput,
} from "~/schemas/email";
import {
  assertSendable,
  ensureRunJob,
  ensureRunJobSoon,
  ensureStartJob,
  haltRun,
  nextOccurrence,
  openRun,
  runJobKey,
  startJobKey,
  siteContext,
  startRun,
} from "~/services/campaign-sender.server";
import { campaignMail } from "~/services/campaign-waves.server";
import { sendBulkMail } from "~/services/mailer.server";
import { findHtmlTemplate, HTML_TEMPLATES, type HtmlTemplate } from "~/services/email-html-templates.server";
import { cancelJob } from "~/services/jobs.server";
import { loadSettings, siteBaseUrl, toSiteInfo } from "~/services/site-settings.server";
import { staffWrite } from "./writes.server";
import { isForeignKeyViolation } from "~/lib/db-errors.server";

export type Actor = { user: Pick<User, "id" | "username">; access: Access };

/** Who may use e-mail marketing: super_admin and admin (docs/product/admin.md 2; sidebarRules.email). */
export const EMAIL_ACCESS = { adminAccess: true } as const;

const notFound = (message: string) => new ApiError(404, message, "NOT_FOUND");
const badRequest = (message: string, field?: string) =>
  new ApiError(400, message, "VALIDATION_ERROR", field ? [{ field, message }] : undefined);

// ---------------------------------------------------------------- templates

export function templateJson(template: EmailTemplate) {
  return {
    id: template.id,
    name: template.name,
    subject: template.subject,
    html_content: template.htmlContent,
    text_content: template.textContent,
    template_variables: template.variableValues,
    created_at: template.createdAt,
    updated_at: template.updatedAt,
    created_by: template.createdBy,
    created_by_name: template.createdByName,
    campaign_count: template.campaignCount,
  };
}

export const listEmailTemplates = () => listTemplates(getDb());

export async function getEmailTemplate(id: number): Promise<EmailTemplate> {
  const template = await findTemplate(getDb(), id);
  if (!template) throw notFound(M.templateNotFound);
  return template;
}

const templateValues = (input: TemplateInput) => ({
  name: input.name,
  subject: input.subject,
  htmlContent: input.html_content,
  textContent: input.text_content,
  variables: input.template_variables,
});

export const createEmailTemplate = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (input: TemplateInput, actor: Actor): Promise<EmailTemplate> => {
    const id = await insertTemplate(getDb(), { ...templateValues(input), createdBy: actor.user.id });
    return getEmailTemplate(id);
  },
);

/** A template's stored values as templateInputSchema reads them: a PUT without a field keeps that field. */
export const templateInputOf = (template: EmailTemplate): Record<string, unknown> => ({
  name: template.name,
  subject: template.subject,
  html_content: template.htmlContent,
  text_content: template.textContent,
  template_variables: template.variableValues,
});

export const updateEmailTemplate = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (id: number, input: TemplateInput, _actor: Actor): Promise<EmailTemplate> => {
    if (!(await updateTemplate(getDb(), id, templateValues(input)))) throw notFound(M.templateNotFound);
    return getEmailTemplate(id);
  },
);

/**
 * "Send a test to me": the saved template as a campaign recipient gets it (filled with the
 * admin's own values, their own unsubscribe link), to the admin's address, at once, so
 * the mail can be seen in a real mailbox before it goes to anyone. Answers the address.
 */
export const sendTemplateTest = staffWrite({ requires: EMAIL_ACCESS, stales: [] }, async (id: number, actor: Actor): Promise<string> => {
  const template = await getEmailTemplate(id);
  const user = await findUserById(getDb(), actor.user.id);
  if (!user) throw notFound(M.templateNotFound);
  const mail = campaignMail(
    {
      subject: `[Test] ${template.subject}`,
      htmlContent: template.htmlContent,
      textContent: template.textContent,
      variables: template.variables,
    },
    { userId: user.id, username: user.username, email: user.email },
    await siteContext(),
    `template-${id}.test-${randomUUID()}`,
  );
  try {
    await sendBulkMail(mail);
  } catch (error) {
    throw new ApiError(502, `${M.testFailed}: ${(error as Error).message}`, "MAIL_NOT_SENT");
  }
  log.info(`email: test of template ${id} sent to ${actor.user.username}`);
  return user.email;
});

/** The names of the campaigns that use a template (it cannot be deleted while there are any). */
export const templateUsers = (id: number) => campaignNamesUsingTemplate(getDb(), id);

/** 409 with the campaigns that use it: delete them or change their template first (docs/product/admin.md 8). */
export const deleteEmailTemplate = staffWrite({ requires: EMAIL_ACCESS, stales: [] }, async (id: number, _actor: Actor): Promise<void> => {
  const db = getDb();
  const users = await campaignNamesUsingTemplate(db, id);
  if (users.length) throw new ApiError(409, M.templateInUse(users), "TEMPLATE_IN_USE", undefined, { campaigns: users });
  try {
    if (!(await deleteTemplate(db, id))) throw notFound(M.templateNotFound);
  } catch (error) {
    // a campaign took it up in between: the foreign key refuses
    if (isForeignKeyViolation(error)) {
      const names = await campaignNamesUsingTemplate(db, id);
      throw new ApiError(409, M.templateInUse(names), "TEMPLATE_IN_USE", undefined, { campaigns: names });
    }
    throw error;
  }
});

// ---------------------------------------------------------------- campaigns

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function campaignJson(campaign: Campaign) {
  const { totals } = campaign;
  return {
    id: campaign.id,
    name: campaign.name,
    template_id: campaign.templateId,
    template_name: campaign.templateName,
    subject: campaign.subject,
    html_content: campaign.htmlContent,
    text_content: campaign.textContent,
    recipient_type: campaign.recipientType,
    schedule_type: campaign.scheduleType,
    scheduled_at: campaign.scheduledAt,
    recurring_pattern: campaign.recurringPattern,
    status: campaign.status,
    total_recipients: totals.total,
    sent_count: totals.sent,
    failed_count: totals.failed,
    pending_count: totals.pending,
    skipped_count: totals.skipped,
    uncertain_count: totals.uncertain,
    completion: completionIndicator(totals, campaign.runCount),
    run_count: campaign.runCount,
    next_run_at: iso(campaign.nextRunAt),
    created_at: campaign.createdAt,
    updated_at: campaign.updatedAt,
    created_by_name: campaign.createdByName,
  };
}

export function runJson(run: CampaignRun) {
  return {
    id: run.id,
    seq: run.seq,
    status: run.status,
    scheduled_for: iso(run.scheduledFor),
    recipient_type: run.recipientType,
    total_recipients: run.totals.total,
    sent_count: run.totals.sent,
    failed_count: run.totals.failed,
    pending_count: run.totals.pending,
    skipped_count: run.totals.skipped,
    uncertain_count: run.totals.uncertain,
    pause_reason: run.pauseReason,
    resume_at: iso(run.resumeAt),
    started_at: run.startedAt,
    paused_at: run.pausedAt,
    finished_at: run.finishedAt,
  };
}

export const listEmailCampaigns = (options: { page: number; limit: number; status?: CampaignStatus }) => listCampaigns(getDb(), options);

export async function getEmailCampaign(id: number): Promise<Campaign> {
  const campaign = await findCampaign(getDb(), id);
  if (!campaign) throw notFound(M.campaignNotFound);
  return campaign;
}

/**
 * The template must exist; with one, the campaign's subject may also use the template's
 * own variables (the schema, which cannot see the template, leaves that subject to here).
 */
async function checkTemplate(input: CampaignInput) {
  if (input.template_id === null) return;
  const template = await findTemplate(getDb(), input.template_id);
  if (!template) throw badRequest(M.templateIdInvalid, "template_id");
  const known = new Set<string>([...BUILTIN_VARIABLES, ...Object.keys(template.variables)]);
  const unknown = variablesIn(input.subject).find((name) => !known.has(name));
  if (unknown) throw badRequest(M.unknownVariable(unknown), "subject");
}

const campaignValues = (input: CampaignInput) => ({
  name: input.name,
  templateId: input.template_id,
  subject: input.subject,
  htmlContent: input.html_content,
  textContent: input.text_content,
  recipientType: input.recipient_type,
  scheduleType: input.schedule_type,
  scheduledAt: input.scheduled_at,
  recurringPattern: input.recurring_pattern,
});

export const createEmailCampaign = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (input: CampaignInput, actor: Actor): Promise<Campaign> => {
    await checkTemplate(input);
    const id = await insertCampaign(getDb(), { ...campaignValues(input), createdBy: actor.user.id });
    return getEmailCampaign(id);
  },
);

/** A campaign's stored values as campaignInputSchema reads them: a PUT without a field keeps that field. */
export const campaignInputOf = (campaign: Campaign): Record<string, unknown> => ({
  name: campaign.name,
  subject: campaign.subject,
  template_id: campaign.templateId,
  html_content: campaign.htmlContent,
  text_content: campaign.textContent,
  recipient_type: campaign.recipientType,
  schedule_type: campaign.scheduleType,
  scheduled_at: campaign.scheduledAt,
  recurring_pattern: campaign.recurringPattern,
});

/**
 * The campaign, if it may be edited: 404 when it is not there, 400
 * '只有草稿状态的活动可以编辑' unless it is a draft. Asked before the edit itself is read, so a
 * non-draft answers with the spec's words whatever the body holds.
 */
export async function editableEmailCampaign(id: number): Promise<Campaign> {
  const campaign = await getEmailCampaign(id);
  if (campaign.status !== "draft") throw badRequest(M.editDraftOnly);
  return campaign;
}

/** Only a draft can be edited ('只有草稿状态的活动可以编辑'). */
export const updateEmailCampaign = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (id: number, input: CampaignInput, _actor: Actor): Promise<Campaign> => {
    await editableEmailCampaign(id);
    await checkTemplate(input);
    if (!(await updateDraftCampaign(getDb(), id, campaignValues(input)))) throw badRequest(M.editDraftOnly);
    return getEmailCampaign(id);
  },
);

/** Any campaign but a sending one (its runs and send log go with it). */
export const deleteEmailCampaign = staffWrite({ requires: EMAIL_ACCESS, stales: [] }, async (id: number, _actor: Actor): Promise<void> => {
  const current = await getEmailCampaign(id);
  if (current.status === "sending") throw badRequest(M.deleteSending);
  const runs = await listRuns(getDb(), id);
  if (!(await deleteCampaignUnlessSending(getDb(), id))) {
    await getEmailCampaign(id);
    throw badRequest(M.deleteSending);
  }
  await cancelJob(startJobKey(id));
  for (const run of runs) await cancelJob(runJobKey(run.id));
});

export type ExecuteOutcome = { campaign: Campaign; message: string };

/**
 * POST /campaigns/:id/execute (docs/runtime.md): a draft starts (immediate), or waits for its
 * time (scheduled) or its series (recurring); a paused one resumes; others answer 400.
 */
export const executeEmailCampaign = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (id: number, actor: Actor): Promise<ExecuteOutcome> => {
    const db = getDb();
    const campaign = await getEmailCampaign(id);
    if (campaign.status === "paused") return resumeEmailCampaign(campaign, actor);
    if (campaign.status !== "draft") throw badRequest(M.executeNotAllowed);
    await assertSendable(campaign);
    const now = Date.now();

    if (campaign.scheduleType === "immediate") {
      const run = await startRun(campaign, { from: ["draft"], scheduledFor: now, nextRunAt: null });
      if (!run) throw badRequest(M.executeNotAllowed);
      log.info(`email: campaign ${id} executed by ${actor.user.username}`);
      return { campaign: await getEmailCampaign(id), message: M.campaignStarted };
    }

    if (campaign.scheduleType === "scheduled") {
      const at = campaign.scheduledAt ? Date.parse(campaign.scheduledAt) : Number.NaN;
      if (Number.isNaN(at)) throw badRequest(M.scheduledAtRequired, "scheduled_at");
      if (at < now - 60_000) throw badRequest(M.scheduledAtPast, "scheduled_at");
      if (!(await setCampaignStatus(db, id, ["draft"], "scheduled", { nextRunAt: at }))) throw badRequest(M.executeNotAllowed);
      await ensureStartJob(id, at);
    } else {
      if (!campaign.recurringPattern) throw badRequest(M.recurringPatternRequired, "recurring_pattern");
      // the series starts at the given first time, else now; a first time in the past
      // continues the series from its next occurrence
      const anchor = campaign.scheduledAt ? Date.parse(campaign.scheduledAt) : now;
      const first = anchor >= now - 60_000 ? anchor : nextOccurrence(anchor, campaign.recurringPattern, now);
      const scheduledAt = campaign.scheduledAt ?? new Date(anchor).toISOString();
      if (!(await setCampaignStatus(db, id, ["draft"], "scheduled", { nextRunAt: first, scheduledAt })))
        throw badRequest(M.executeNotAllowed);
      await ensureStartJob(id, first);
    }
    log.info(`email: campaign ${id} scheduled by ${actor.user.username}`);
    return { campaign: await getEmailCampaign(id), message: M.campaignScheduled };
  },
);

async function resumeEmailCampaign(campaign: Campaign, actor: Actor): Promise<ExecuteOutcome> {
  const db = getDb();
  const run = await openRun(campaign.id);
  if (!run) {
    // nothing left open (should not happen): the campaign goes back to where it belongs
    await setCampaignStatus(
      db,
      campaign.id,
      ["paused"],
      campaign.scheduleType === "recurring" && campaign.nextRunAt !== null ? "scheduled" : "completed",
    );
    return { campaign: await getEmailCampaign(campaign.id), message: M.campaignResumed };
  }
  const resumed = await transition(db, {
    runId: run.id,
    runFrom: ["paused", "waiting"],
    run: { status: "sending", pauseReason: null, resumeAt: null, pausedAt: null },
    campaignId: campaign.id,
    campaignFrom: ["paused"],
    campaignTo: "sending",
  });
  if (!resumed) throw badRequest(M.executeNotAllowed);
  // a relay-outage wait is cut short: its job (pending at the resume time) is replaced
  await cancelJob(runJobKey(run.id));
  if (!(await ensureRunJob(run.id))) ensureRunJobSoon(run.id);
  log.info(`email: campaign ${campaign.id} run ${run.seq} resumed by ${actor.user.username}`);
  return { campaign: await getEmailCampaign(campaign.id), message: M.campaignResumed };
}

/** POST /campaigns/:id/pause: only a sending campaign; senders stop picking at once, messages in flight finish. */
export const pauseEmailCampaign = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (id: number, actor: Actor): Promise<Campaign> => {
    const campaign = await getEmailCampaign(id);
    if (campaign.status !== "sending") throw badRequest(M.pauseNotSending);
    const run = await openRun(id);
    const reason = `Paused by ${actor.user.username} at ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;
    const paused = run
      ? await transition(getDb(), {
          runId: run.id,
          runFrom: ["sending"],
          run: { status: "paused", pauseReason: reason, resumeAt: null, pausedAt: new Date().toISOString() },
          campaignId: id,
          campaignFrom: ["sending"],
          campaignTo: "paused",
        })
      : false;
    if (!paused) throw badRequest(M.pauseNotSending);
    haltRun(run!.id);
    log.info(`email: campaign ${id} run ${run!.seq} paused by ${actor.user.username}`);
    return getEmailCampaign(id);
  },
);

/** A scheduled campaign back to draft (its next start cancelled), to edit or to stop a series. */
export const unscheduleEmailCampaign = staffWrite(
  { requires: EMAIL_ACCESS, stales: [] },
  async (id: number, _actor: Actor): Promise<Campaign> => {
    await getEmailCampaign(id);
    if (!(await setCampaignStatus(getDb(), id, ["scheduled"], "draft", { nextRunAt: null }))) throw badRequest(M.unscheduleNotScheduled);
    await cancelJob(startJobKey(id));
    return getEmailCampaign(id);
  },
);

/** GET /campaigns/:id/stats: {sent, failed, pending} (plus skipped, uncertain, total). */
export async function emailCampaignStats(id: number) {
  const { totals } = await getEmailCampaign(id);
  return {
    sent: totals.sent,
    failed: totals.failed,
    pending: totals.pending,
    skipped: totals.skipped,
    uncertain: totals.uncertain,
    total: totals.total,
  };
}

export type CampaignDetail = {
  campaign: Campaign;
  runs: CampaignRun[];
  failures: SendFailure[];
  /** the open run's rows waiting for a retry after a temporary failure */
  retrying: { count: number; lastError: string | null; nextAttemptAt: number | null } | null;
  actions: ReturnType<typeof campaignActions>;
};

export async function emailCampaignDetail(id: number): Promise<CampaignDetail> {
  const db = getDb();
  const campaign = await getEmailCampaign(id);
  const [runs, failures] = await Promise.all([listRuns(db, id), failedSends(db, id, FAILED_LIST_LIMIT)]);
  const open = runs.find((run) => run.status === "sending" || run.status === "paused" || run.status === "waiting");
  const retrying = open ? await retryingSends(db, open.id) : null;
  return {
    campaign,
    runs,
    failures,
    retrying: retrying && retrying.count > 0 ? retrying : null,
    actions: campaignActions(campaign.status),
  };
}

/** How many users each recipient choice reaches now (the campaign form shows them). */
export async function audienceCounts(): Promise<Record<RecipientType, number>> {
  const db = getDb();
  const now = Date.now();
  const [all, active, inactive] = await Promise.all([
    countAudience(db, "all", ACTIVE_DAYS, now),
    countAudience(db, "active", ACTIVE_DAYS, now),
    countAudience(db, "inactive", ACTIVE_DAYS, now),
  ]);
  return { all, active, inactive };
}

// ---------------------------------------------------------------- statistics

const DAY_MS = 24 * 60 * 60_000;

/**
 * GET /api/email/overview (docs/product/admin.md 3 "Email overview"). Active campaigns are the
 * ones in motion (sending, scheduled or paused), so the five counts add up to the total;
 * the success rate is sent ÷ every log row (sent + failed + pending) in per cent with one
 * decimal; templates are active when a campaign uses them; recentStats are the last 7 UTC
 * days, oldest first, by the day each message ended.
 */
export async function emailOverview(now = Date.now()) {
  const db = getDb();
  const days = Array.from({ length: RECENT_STATS_DAYS }, (_, i) =>
    new Date(now - (RECENT_STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const [statuses, logs, templates, byDay, unsubscribed] = await Promise.all([
    campaignStatusCounts(db),
    sendStatusCounts(db),
    countTemplates(db),
    sendsByDay(db, days[0]),
    countUnsubscribes(db),
  ]);
  const total = logs.sent + logs.failed + logs.pending;
  const totalCampaigns = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  return {
    totalCampaigns,
    activeCampaigns: statuses.sending + statuses.scheduled + statuses.paused,
    completedCampaigns: statuses.completed,
    draftCampaigns: statuses.draft,
    failedCampaigns: statuses.failed,
    sendingCampaigns: statuses.sending,
    scheduledCampaigns: statuses.scheduled,
    pausedCampaigns: statuses.paused,
    totalEmailsSent: logs.sent,
    rates: { successRate: successRate(logs.sent, total) },
    emailLogs: { sent: logs.sent, failed: logs.failed, pending: logs.pending, total, skipped: logs.skipped },
    templates,
    recentStats: days.map((date) => {
      const row = byDay.find((entry) => entry.day === date);
      const sent = row?.sent ?? 0;
      const failed = row?.failed ?? 0;
      return { date, sent, failed, total: sent + failed };
    }),
    unsubscribed,
  };
}
export type EmailOverview = Awaited<ReturnType<typeof emailOverview>>;

// ---------------------------------------------------------------- built-in HTML templates

export const htmlTemplateJson = (template: HtmlTemplate) => ({
  name: template.name,
  displayName: template.displayName,
  description: template.description,
  type: template.type,
});

export const listHtmlTemplates = () => HTML_TEMPLATES;

export function getHtmlTemplate(name: string): HtmlTemplate {
  const template = findHtmlTemplate(name);
  if (!template) throw notFound(M.htmlTemplateNotFound);
  return template;
}

/** The preview's sample values: the site's own name and address, the admin's name, an example link. */
export async function previewDefaults(actor: Actor): Promise<Required<{ [K in keyof PreviewInput]: string }>> {
  const settings = await loadSettings();
  return {
    siteName: toSiteInfo(settings).site_name,
    siteUrl: siteBaseUrl(settings),
    userName: actor.user.username,
    unsubscribeUrl: `${getEnv().PUBLIC_URL}/unsubscribe?token=example`,
  };
}

/** A campaign's message as a recipient would see it, with sample values (the admin's name, the site's); null without content. */
export async function campaignPreview(campaign: Campaign, actor: Actor): Promise<{ subject: string; html: string } | null> {
  const template = campaign.templateId ? await findTemplate(getDb(), campaign.templateId) : undefined;
  const html = template?.htmlContent ?? campaign.htmlContent;
  if (!html) return null;
  const values = await previewDefaults(actor);
  const rendered = renderMessage(
    { subject: campaign.subject, html, text: template?.textContent ?? campaign.textContent, variables: template?.variables },
    { ...values, email: "preview@example.com" },
  );
  return { subject: rendered.subject, html: rendered.html };
}

/** POST /html-templates/:name/preview: {subject, html} (and text) with the given values, defaults for the rest. */
export async function previewHtmlTemplate(name: string, input: PreviewInput, actor: Actor) {
  const template = getHtmlTemplate(name);
  const defaults = await previewDefaults(actor);
  const values = {
    siteName: input.siteName ?? defaults.siteName,
    siteUrl: input.siteUrl ?? defaults.siteUrl,
    userName: input.userName ?? defaults.userName,
    unsubscribeUrl: input.unsubscribeUrl ?? defaults.unsubscribeUrl,
  };
  const rendered = renderMessage(
    { subject: template.subject, html: template.html, text: template.text },
    { ...values, email: "preview@example.com" },
  );
  return { name: template.name, subject: rendered.subject, html: rendered.html, text: rendered.text, values };
}
