/**
 * E-mail marketing inputs (spec/admin.md "Email marketing", CONTRACT.md "E-mail
 * marketing"): one zod schema per input, shared by the admin pages and /api/email, with
 * the limits and the spec's messages as named constants. Client-safe.
 */
import { z } from "zod";
import type { CampaignRunStatus, CampaignStatus, RecipientType, RecurringPattern, ScheduleType, SendStatus } from "../../db/schema";

export type { CampaignRunStatus, CampaignStatus, RecipientType, RecurringPattern, ScheduleType, SendStatus };

export const RECIPIENT_TYPES = ["all", "active", "inactive"] as const satisfies readonly RecipientType[];
export const SCHEDULE_TYPES = ["immediate", "scheduled", "recurring"] as const satisfies readonly ScheduleType[];
export const RECURRING_PATTERNS = ["daily", "weekly", "monthly"] as const satisfies readonly RecurringPattern[];
export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "completed", "failed", "paused"] as const satisfies readonly CampaignStatus[];

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

/** Users who logged in within this many days are "active" (CONTRACT.md). */
export const ACTIVE_DAYS = 30;
/** The statistics' recent window (spec/admin.md 9). */
export const RECENT_STATS_DAYS = 7;
export const CAMPAIGNS_PAGE_SIZE = 20;
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
  // verbatim from spec/admin.md 6 and 8
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
  variableValueInvalid: `Variable values are text of at most ${VARIABLE_VALUE_MAX} characters`,
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
      .join(", ")}${campaigns.length > 5 ? " and more" : ""}. Delete ${campaigns.length === 1 ? "that campaign" : "those campaigns"} or change ${campaigns.length === 1 ? "its" : "their"} template first.`,
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
  // failures of each call (spec/admin.md 8: "alerts for fetch, create, update, delete, execute and pause failures")
  createFailed: "Creating failed",
  updateFailed: "Saving failed",
  deleteFailed: "Deleting failed",
  executeFailed: "Executing the campaign failed",
  pauseFailed: "Pausing the campaign failed",
} as const;

const blankToNull = (value: unknown) => (value === "" || value === undefined ? null : value);
const trimmed = (required: string) => z.string(required).trim().min(1, required);

/** `{{name}}` names used in a text, in order of first use. */
export function variablesIn(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(VARIABLE_PATTERN)) names.add(match[1]);
  return [...names];
}

/** A JSON object (or its text, from a form's textarea) of custom variables: name → text value. */
export const templateVariablesSchema = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return {};
    if (typeof value !== "string") return value;
    if (!value.trim()) return {};
    try {
      return JSON.parse(value);
    } catch {
      return Symbol.for("invalid");
    }
  },
  z
    .record(z.string(), z.unknown(), EMAIL_MESSAGES.variablesInvalid)
    .superRefine((record, ctx) => {
      const entries = Object.entries(record);
      if (entries.length > VARIABLES_MAX) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.variablesTooMany });
      for (const [name, value] of entries) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.variableNameInvalid });
        else if (!["string", "number", "boolean"].includes(typeof value) || String(value).length > VARIABLE_VALUE_MAX) {
          ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.variableValueInvalid });
        }
      }
    })
    .transform((record) => Object.fromEntries(Object.entries(record).map(([name, value]) => [name, String(value)])) as Record<string, string>),
);

const subjectSchema = trimmed(EMAIL_MESSAGES.subjectRequired)
  .max(SUBJECT_MAX, EMAIL_MESSAGES.subjectTooLong)
  .refine((value) => !/[\r\n]/.test(value), EMAIL_MESSAGES.subjectOneLine);

/** Adds an issue on each field that uses a variable that is neither built in nor defined. */
function checkVariables(fields: Record<string, string | null | undefined>, defined: Record<string, string>, ctx: z.RefinementCtx) {
  const known = new Set<string>([...BUILTIN_VARIABLES, ...Object.keys(defined)]);
  for (const [field, text] of Object.entries(fields)) {
    const unknown = text ? variablesIn(text).find((name) => !known.has(name)) : undefined;
    if (unknown) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.unknownVariable(unknown), path: [field] });
  }
}

/** POST/PUT /api/email/templates and the template form: name, subject, html_content required; text_content optional. */
export const templateInputSchema = z
  .object({
    name: trimmed(EMAIL_MESSAGES.nameRequired).max(TEMPLATE_NAME_MAX, EMAIL_MESSAGES.nameTooLong),
    subject: subjectSchema,
    html_content: z
      .string(EMAIL_MESSAGES.htmlRequired)
      .max(HTML_MAX, EMAIL_MESSAGES.htmlTooLong)
      .refine((value) => value.trim().length > 0, EMAIL_MESSAGES.htmlRequired),
    text_content: z.preprocess(blankToNull, z.string().max(TEXT_MAX, EMAIL_MESSAGES.textTooLong).nullable()).optional().transform((v) => v ?? null),
    template_variables: templateVariablesSchema,
  })
  .superRefine((value, ctx) => {
    checkVariables({ subject: value.subject, html_content: value.html_content, text_content: value.text_content }, value.template_variables, ctx);
  });
export type TemplateInput = z.infer<typeof templateInputSchema>;

/**
 * A date and time: ISO 8601 with a zone, or a form's datetime-local value (no zone),
 * read as UTC like every time the back office shows.
 */
export const dateTimeSchema = z
  .string(EMAIL_MESSAGES.scheduledAtInvalid)
  .trim()
  .transform((value, ctx) => {
    const withZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
    const time = /^\d{4}-\d{2}-\d{2}T/.test(withZone) ? Date.parse(withZone) : Number.NaN;
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.scheduledAtInvalid });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

/** How far in the past a "scheduled" time may be when it is given (the form took a while). */
const SCHEDULE_SLACK_MS = 60_000;

/**
 * POST/PUT /api/email/campaigns and the campaign form (spec/admin.md 5): name and subject
 * required; template optional (an integer, or omitted/empty); the time when scheduled, the
 * pattern when recurring (and an optional first time). Fields that do not apply to the
 * chosen schedule are dropped.
 */
export const campaignInputSchema = z
  .object({
    name: trimmed(EMAIL_MESSAGES.nameRequired).max(TEMPLATE_NAME_MAX, EMAIL_MESSAGES.nameTooLong),
    subject: subjectSchema,
    template_id: z
      .preprocess(blankToNull, z.coerce.number(EMAIL_MESSAGES.templateIdInvalid).int(EMAIL_MESSAGES.templateIdInvalid).positive(EMAIL_MESSAGES.templateIdInvalid).nullable())
      .optional()
      .transform((v) => v ?? null),
    html_content: z.preprocess(blankToNull, z.string().max(HTML_MAX, EMAIL_MESSAGES.htmlTooLong).nullable()).optional().transform((v) => (v?.trim() ? v : null)),
    text_content: z.preprocess(blankToNull, z.string().max(TEXT_MAX, EMAIL_MESSAGES.textTooLong).nullable()).optional().transform((v) => v ?? null),
    recipient_type: z.preprocess(blankToNull, z.enum(RECIPIENT_TYPES, EMAIL_MESSAGES.recipientTypeInvalid).nullable()).optional().transform((v) => v ?? "all"),
    schedule_type: z.preprocess(blankToNull, z.enum(SCHEDULE_TYPES, EMAIL_MESSAGES.scheduleTypeInvalid).nullable()).optional().transform((v) => v ?? "immediate"),
    scheduled_at: z.preprocess(blankToNull, dateTimeSchema.nullable()).optional().transform((v) => v ?? null),
    recurring_pattern: z.preprocess(blankToNull, z.enum(RECURRING_PATTERNS, EMAIL_MESSAGES.recurringPatternRequired).nullable()).optional().transform((v) => v ?? null),
  })
  .superRefine((value, ctx) => {
    if (value.schedule_type === "scheduled") {
      if (!value.scheduled_at) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.scheduledAtRequired, path: ["scheduled_at"] });
      else if (Date.parse(value.scheduled_at) < Date.now() - SCHEDULE_SLACK_MS) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.scheduledAtPast, path: ["scheduled_at"] });
    }
    if (value.schedule_type === "recurring" && !value.recurring_pattern) {
      ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.recurringPatternRequired, path: ["recurring_pattern"] });
    }
    checkVariables({ subject: value.subject, html_content: value.html_content, text_content: value.text_content }, {}, ctx);
  })
  .transform((value) => ({
    ...value,
    scheduled_at: value.schedule_type === "immediate" ? null : value.scheduled_at,
    recurring_pattern: value.schedule_type === "recurring" ? value.recurring_pattern : null,
  }));
export type CampaignInput = z.infer<typeof campaignInputSchema>;

/** POST /api/email/html-templates/:name/preview and the preview form: every value optional. */
export const previewInputSchema = z.object({
  siteName: z.preprocess(blankToNull, z.string().trim().max(200).nullable()).optional(),
  userName: z.preprocess(blankToNull, z.string().trim().max(200).nullable()).optional(),
  siteUrl: z.preprocess(blankToNull, z.string().trim().max(2000).nullable()).optional(),
  unsubscribeUrl: z.preprocess(blankToNull, z.string().trim().max(2000).nullable()).optional(),
});
export type PreviewInput = z.infer<typeof previewInputSchema>;

/** ?page= and ?status= of the campaign list. */
export const campaignListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  status: z.enum(CAMPAIGN_STATUSES).optional().catch(undefined),
});

/** Spec/admin.md 4: pending>0 means sending; no failures means complete; otherwise partly failed. */
export type CompletionIndicator = "sending" | "complete" | "partly-failed" | "not-started";
export function completionIndicator(stats: { sent: number; failed: number; pending: number }): CompletionIndicator {
  if (stats.pending > 0) return "sending";
  if (stats.sent + stats.failed === 0) return "not-started";
  return stats.failed === 0 ? "complete" : "partly-failed";
}
export const COMPLETION_LABELS: Record<CompletionIndicator, string> = {
  sending: "Sending",
  complete: "Complete",
  "partly-failed": "Partly failed",
  "not-started": "Not sent yet",
};

/** Sent divided by total, as a percentage with one decimal (spec/admin.md 9). */
export function successRate(sent: number, total: number): number {
  return total > 0 ? Math.round((sent / total) * 1000) / 10 : 0;
}

/** Which actions a campaign's status allows (spec/admin.md 4). */
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
