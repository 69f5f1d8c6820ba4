/**
 * E-mail marketing inputs (docs/product/admin.md "Email marketing", docs/runtime.md "E-mail
 * marketing"): one zod schema per input, shared by the admin pages' actions and
 * /api/email. Limits and messages are in email-rules.ts (zod-free, for the pages).
 */
import { z } from "zod";
import {
  BUILTIN_VARIABLES,
  CAMPAIGN_STATUSES,
  CAMPAIGNS_LIMIT_MAX,
  CAMPAIGNS_PAGE_SIZE,
  EMAIL_MESSAGES,
  HTML_MAX,
  RECIPIENT_TYPES,
  RECURRING_PATTERNS,
  SCHEDULE_TYPES,
  SUBJECT_MAX,
  TEMPLATE_NAME_MAX,
  TEXT_MAX,
  VARIABLE_VALUE_MAX,
  VARIABLES_MAX,
  variablesIn,
} from "./email-rules";

export * from "./email-rules";

const blankToNull = (value: unknown) => (value === "" || value === undefined ? null : value);
const trimmed = (required: string) => z.string(required).trim().min(1, required);

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
        else if ((value !== null && !["string", "number", "boolean"].includes(typeof value)) || String(value).length > VARIABLE_VALUE_MAX) {
          ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.variableValueInvalid });
        }
      }
    })
    // kept as given (text, numbers, booleans, null): the API answers what it was sent; the sender fills in their text
    .transform((record) => record as Record<string, string | number | boolean | null>),
);

const subjectSchema = trimmed(EMAIL_MESSAGES.subjectRequired)
  .max(SUBJECT_MAX, EMAIL_MESSAGES.subjectTooLong)
  .refine((value) => !/[\r\n]/.test(value), EMAIL_MESSAGES.subjectOneLine);

/** Adds an issue on each field that uses a variable that is neither built in nor defined. */
function checkVariables(fields: Record<string, string | null | undefined>, defined: Record<string, unknown>, ctx: z.RefinementCtx) {
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
    text_content: z
      .preprocess(blankToNull, z.string().max(TEXT_MAX, EMAIL_MESSAGES.textTooLong).nullable())
      .optional()
      .transform((v) => v ?? null),
    template_variables: templateVariablesSchema,
  })
  .superRefine((value, ctx) => {
    checkVariables(
      { subject: value.subject, html_content: value.html_content, text_content: value.text_content },
      value.template_variables,
      ctx,
    );
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
 * POST/PUT /api/email/campaigns and the campaign form (docs/product/admin.md 5): name and subject
 * required; template optional (an integer, or omitted/empty); the time when scheduled, the
 * pattern when recurring (and an optional first time). Fields that do not apply to the
 * chosen schedule are dropped.
 */
export const campaignInputSchema = z
  .object({
    name: trimmed(EMAIL_MESSAGES.nameRequired).max(TEMPLATE_NAME_MAX, EMAIL_MESSAGES.nameTooLong),
    subject: subjectSchema,
    template_id: z
      .preprocess(
        blankToNull,
        z.coerce
          .number(EMAIL_MESSAGES.templateIdInvalid)
          .int(EMAIL_MESSAGES.templateIdInvalid)
          .positive(EMAIL_MESSAGES.templateIdInvalid)
          .nullable(),
      )
      .optional()
      .transform((v) => v ?? null),
    html_content: z
      .preprocess(blankToNull, z.string().max(HTML_MAX, EMAIL_MESSAGES.htmlTooLong).nullable())
      .optional()
      .transform((v) => (v?.trim() ? v : null)),
    text_content: z
      .preprocess(blankToNull, z.string().max(TEXT_MAX, EMAIL_MESSAGES.textTooLong).nullable())
      .optional()
      .transform((v) => v ?? null),
    recipient_type: z
      .preprocess(blankToNull, z.enum(RECIPIENT_TYPES, EMAIL_MESSAGES.recipientTypeInvalid).nullable())
      .optional()
      .transform((v) => v ?? "all"),
    schedule_type: z
      .preprocess(blankToNull, z.enum(SCHEDULE_TYPES, EMAIL_MESSAGES.scheduleTypeInvalid).nullable())
      .optional()
      .transform((v) => v ?? "immediate"),
    scheduled_at: z
      .preprocess(blankToNull, dateTimeSchema.nullable())
      .optional()
      .transform((v) => v ?? null),
    recurring_pattern: z
      .preprocess(blankToNull, z.enum(RECURRING_PATTERNS, EMAIL_MESSAGES.recurringPatternRequired).nullable())
      .optional()
      .transform((v) => v ?? null),
  })
  .superRefine((value, ctx) => {
    if (value.schedule_type === "scheduled") {
      if (!value.scheduled_at) ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.scheduledAtRequired, path: ["scheduled_at"] });
      else if (Date.parse(value.scheduled_at) < Date.now() - SCHEDULE_SLACK_MS)
        ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.scheduledAtPast, path: ["scheduled_at"] });
    }
    if (value.schedule_type === "recurring" && !value.recurring_pattern) {
      ctx.addIssue({ code: "custom", message: EMAIL_MESSAGES.recurringPatternRequired, path: ["recurring_pattern"] });
    }
    // with a template, the subject may use the template's own variables: the service checks it against them
    checkVariables(
      { subject: value.template_id === null ? value.subject : null, html_content: value.html_content, text_content: value.text_content },
      {},
      ctx,
    );
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

/** ?page=, ?limit= (the API's; the page shows CAMPAIGNS_PAGE_SIZE) and ?status= of the campaign list. */
export const campaignListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  limit: z.coerce.number().int().min(1).max(CAMPAIGNS_LIMIT_MAX).catch(CAMPAIGNS_PAGE_SIZE),
  status: z.enum(CAMPAIGN_STATUSES).optional().catch(undefined),
});

/**
 * A PUT's body over the stored values (docs/runtime.md leaves partial updates open; decision
 * 018): the fields it names replace the stored ones, the others stay. A body that is not
 * an object is checked as it is (and refused).
 */
export function overStored<T>(schema: { safeParse: (value: unknown) => z.ZodSafeParseResult<T> }, stored: Record<string, unknown>) {
  return {
    safeParse: (raw: unknown) =>
      schema.safeParse(
        raw !== null && typeof raw === "object" && !Array.isArray(raw) ? { ...stored, ...(raw as Record<string, unknown>) } : raw,
      ),
  };
}
