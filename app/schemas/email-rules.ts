/**
 * E-mail marketing rules without zod (decision 008: pages import these, never the
 * schemas): names, labels, limits, the spec's messages as named constants, and the pure
 * rules the screens and the server share. Client-safe.
 */
import type { CampaignRunStatus, CampaignStatus, RecipientType, RecurringPattern, ScheduleType, SendStatus } from "../../db/schema";

export type { CampaignRunStatus, CampaignStatus, RecipientType, RecurringPattern, ScheduleType, SendStatus };

export const RECIPIENT_TYPES = ["all", "active", "inactive"] as const satisfies readonly RecipientType[];
export const SCHEDULE_TYPES = ["immediate", "scheduled", "recurring"] as const satisfies readonly ScheduleType[];
export const RECURRING_PATTERNS = ["daily", "weekly", "monthly"] as const satisfies readonly RecurringPattern[];
export const CAMPAIGN_STATUSES = [
  "draft",
  "scheduled",
  "sending",
  "completed",
  "failed",
  "paused",
] as const satisfies readonly CampaignStatus[];

export const RECIPIENT_LABELS: Record<RecipientType, string> = {
  all: "All subscribers",
  active: "Active (logged in within 30 days)",
  inactive: "Inactive (no login for 30 days)",
};
export const SCHEDULE_LABELS: Record<ScheduleType, string> = { immediate: "Send now", scheduled: "At a set time", recurring: "Repeating" };
export const RECURRING_LABELS: Record<RecurringPattern, string> = { daily: "Daily", weekly: "Weekly", monthly: "Monthly" };
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  completed: "Completed",
  failed: "Failed",
  paused: "Paused",
};

/** Users who logged in within this many days are "active" (docs/runtime.md). */
export const ACTIVE_DAYS = 30;
/** The statistics' recent window (docs/product/admin.md 9). */
export const RECENT_STATS_DAYS = 7;
export const CAMPAIGNS_PAGE_SIZE = 20;
/** The most campaigns GET /api/email/campaigns?limit= answers at once. */
export const CAMPAIGNS_LIMIT_MAX = 100;
export const TEMPLATES_PAGE_SIZE = 20;
/** Failed recipients listed on a campaign's page. */
export const FAILED_LIST_LIMIT = 50;

export const TEMPLATE_NAME_MAX = 100;
export const SUBJECT_MAX = 200;
export const HTML_MAX = 200_000;
export const TEXT_MAX = 100_000;
export const VARIABLES_MAX = 30;
export const VARIABLE_VALUE_MAX = 1000;

/** Filled in by the sender in subject and bodies (HTML-escaped in HTML). */
export const BUILTIN_VARIABLES = ["userName", "email", "siteName", "siteUrl", "unsubscribeUrl"] as const;
export type BuiltinVariable = (typeof BUILTIN_VARIABLES)[number];
export const VARIABLE_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export const EMAIL_MESSAGES = {
  // verbatim from docs/product/admin.md 6 and 8
  forbidden: "权限不足，需要管理员权限",
  noToken: "未找到认证令牌，请重新登录",
  editDraftOnly: "只有草稿状态的活动可以编辑",
  // the rest: the spec names the failure, not the words
  loadFailed: "Loading e-mail marketing failed",
  templateNotFound: "Template not found",
  campaignNotFound: "Campaign not found",
  htmlTemplateNotFound: "Built-in template not found",
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${TEMPLATE_NAME_MAX} characters`,
  subjectRequired: "Subject is required",
  subjectTooLong: `Subject must be at most ${SUBJECT_MAX} characters`,
  subjectOneLine: "Subject must be one line",
  htmlRequired: "HTML content is required",
  htmlTooLong: "HTML content is too long",
  textTooLong: "Text content is too long",
  variablesInvalid: 'Variables must be a JSON object of names and values, e.g. {"promoCode": "SAVE10"}',
  variablesTooMany: `At most ${VARIABLES_MAX} variables`,
  variableNameInvalid: "Variable names are letters, digits and _ (not starting with a digit)",
  variableValueInvalid: `Variable values are text, numbers, true/false or null, of at most ${VARIABLE_VALUE_MAX} characters`,
  unknownVariable: (name: string) =>
    `Unknown variable {{${name}}}: use ${BUILTIN_VARIABLES.map((v) => `{{${v}}}`).join(", ")} or define it under Variables`,
  templateIdInvalid: "Choose a template from the list",
  recipientTypeInvalid: "Recipients must be all, active or inactive",
  scheduleTypeInvalid: "Schedule must be immediate, scheduled or recurring",
  scheduledAtRequired: "Choose when to send",
  scheduledAtInvalid: "The scheduled time is not a valid date and time",
  scheduledAtPast: "Choose a time in the future",
  recurringPatternRequired: "Choose how often to repeat: daily, weekly or monthly",
  contentRequired: "Choose a template or write the e-mail's HTML body",
  executeNotAllowed: "Only a draft campaign can be executed (executing a paused one resumes it)",
  pauseNotSending: "Only a sending campaign can be paused",
  deleteSending: "A sending campaign cannot be deleted: pause it first",
  unscheduleNotScheduled: "Only a scheduled campaign can be taken back to draft",
  templateInUse: (campaigns: string[]) =>
    `This template is used by ${campaigns.length === 1 ? "the campaign" : `${campaigns.length} campaigns`} ${campaigns
      .slice(0, 5)
      .map((name) => `“${name}”`)
      .join(
        ", ",
      )}${campaigns.length > 5 ? " and more" : ""}. Delete ${campaigns.length === 1 ? "that campaign" : "those campaigns"} or change ${campaigns.length === 1 ? "its" : "their"} template first.`,
  // successes
  templateCreated: "Template created",
  templateUpdated: "Template updated",
  templateDeleted: "Template deleted",
  campaignCreated: "Campaign created",
  campaignUpdated: "Campaign updated",
  campaignDeleted: "Campaign deleted",
  campaignStarted: "Campaign is sending",
  campaignScheduled: "Campaign scheduled",
  campaignResumed: "Campaign resumed",
  campaignPaused: "Campaign paused",
  campaignUnscheduled: "Campaign is a draft again",
  // failures of each call (docs/product/admin.md 8: "alerts for fetch, create, update, delete, execute and pause failures")
  createFailed: "Creating failed",
  updateFailed: "Saving failed",
  deleteFailed: "Deleting failed",
  executeFailed: "Executing the campaign failed",
  pauseFailed: "Pausing the campaign failed",
  testFailed: "Sending the test failed",
  testSent: (email: string) => `Test sent to ${email}`,
} as const;

/** `{{name}}` names used in a text, in order of first use. */
export function variablesIn(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(VARIABLE_PATTERN)) names.add(match[1]);
  return [...names];
}

/**
 * Spec/admin.md 4: pending>0 means sending; no failures means complete; otherwise partly
 * failed. Of a campaign that has run (a run that reached nobody, or only skipped users, is
 * complete too); one that never ran is "not-started" (`runs` 0).
 */
export type CompletionIndicator = "sending" | "complete" | "partly-failed" | "not-started";
export function completionIndicator(stats: { sent: number; failed: number; pending: number }, runs = 1): CompletionIndicator {
  if (runs === 0) return "not-started";
  if (stats.pending > 0) return "sending";
  return stats.failed === 0 ? "complete" : "partly-failed";
}
export const COMPLETION_LABELS: Record<CompletionIndicator, string> = {
  sending: "Sending",
  complete: "Complete",
  "partly-failed": "Partly failed",
  "not-started": "Not sent yet",
};

/** Sent divided by total, as a percentage with one decimal (docs/product/admin.md 9). */
export function successRate(sent: number, total: number): number {
  return total > 0 ? Math.round((sent / total) * 1000) / 10 : 0;
}

/** Which actions a campaign's status allows (docs/product/admin.md 4). */
export function campaignActions(status: CampaignStatus) {
  return {
    execute: status === "draft",
    resume: status === "paused",
    pause: status === "sending",
    edit: status === "draft",
    delete: status !== "sending",
    unschedule: status === "scheduled",
  };
}
