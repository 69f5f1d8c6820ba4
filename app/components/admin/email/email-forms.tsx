/**
 * The forms of the e-mail marketing screens (template create/edit/delete, campaign
 * create/edit, execute and delete confirmations), each a plain <form method="post"> that
 * works without JavaScript; the server validates (decision 008).
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { formatDateTime } from "~/components/admin/format";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import {
  BUILTIN_VARIABLES,
  campaignActions,
  RECIPIENT_LABELS,
  RECIPIENT_TYPES,
  RECURRING_LABELS,
  RECURRING_PATTERNS,
  SCHEDULE_LABELS,
  SCHEDULE_TYPES,
  type CampaignStatus,
  type RecipientType,
  type RecurringPattern,
  type ScheduleType,
} from "~/schemas/email-rules";

const VARIABLE_HINT = `Variables: ${BUILTIN_VARIABLES.map((name) => `{{${name}}}`).join(" ")} (escaped in HTML), plus your own below.`;

function SaveOrCancel({
  label,
  cancelTo,
  secondary,
  children,
}: {
  label: string;
  cancelTo: string;
  secondary?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions">
      {/* first in the form: Enter in a field saves, it never sends */}
      <SubmitButton className={secondary ? "button button--secondary" : "button"} pendingText="Saving…">
        {label}
      </SubmitButton>
      {children}
      <Link to={cancelTo} className="button button--secondary" preventScrollReset>
        Cancel
      </Link>
    </div>
  );
}

export type TemplateFormValues = {
  name: string;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  variables: Record<string, string | number | boolean | null>;
};

export function TemplateForm({
  id,
  intent,
  defaults,
  lastResult,
  submitLabel,
  cancelTo,
  hidden,
  withTest,
}: {
  id: string;
  intent: "create" | "update";
  defaults?: Partial<TemplateFormValues>;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  cancelTo: string;
  hidden?: Record<string, string | number>;
  /** a second button: save, then mail the template to the admin as a recipient gets it */
  withTest?: boolean;
}) {
  const [form, fields] = useForm<{ name: string; subject: string; html_content: string; text_content: string; template_variables: string }>(
    {
      id,
      lastResult,
      defaultValue: {
        name: defaults?.name ?? "",
        subject: defaults?.subject ?? "",
        html_content: defaults?.htmlContent ?? "",
        text_content: defaults?.textContent ?? "",
        template_variables:
          defaults?.variables && Object.keys(defaults.variables).length ? JSON.stringify(defaults.variables, null, 2) : "",
      },
    },
  );
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="admin-form-grid">
        <Field id={fields.name.id} label="Name" errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
        <Field id={fields.subject.id} label="Subject" errors={fields.subject.errors}>
          <input {...getInputProps(fields.subject, { type: "text" })} maxLength={200} autoComplete="off" />
        </Field>
      </div>
      <Field id={fields.html_content.id} label="HTML content" errors={fields.html_content.errors} hint={VARIABLE_HINT}>
        <textarea {...getTextareaProps(fields.html_content)} rows={12} className="admin-textarea--mono" spellCheck={false} />
      </Field>
      <Field
        id={fields.text_content.id}
        label="Text content (optional)"
        errors={fields.text_content.errors}
        hint="The plain-text part. Left empty, it is made from the HTML. An unsubscribe link is added to each part that has none."
      >
        <textarea {...getTextareaProps(fields.text_content)} rows={6} />
      </Field>
      <Field
        id={fields.template_variables.id}
        label="Variables (optional)"
        errors={fields.template_variables.errors}
        hint={'A JSON object of your own variables and their values, e.g. {"promoCode": "SAVE10"} for {{promoCode}}.'}
      >
        <textarea {...getTextareaProps(fields.template_variables)} rows={3} className="admin-textarea--mono" spellCheck={false} />
      </Field>
      <SaveOrCancel label={submitLabel} cancelTo={cancelTo}>
        {withTest ? (
          <SubmitButton className="button button--secondary" name="then" value="test" pendingText="Sending the test…">
            Save and send a test to me
          </SubmitButton>
        ) : null}
      </SaveOrCancel>
    </Form>
  );
}

export function DeleteTemplateForm({
  template,
  usedBy,
  error,
  cancelTo,
}: {
  template: { id: number; name: string };
  usedBy: string[];
  error?: string;
  cancelTo: string;
}) {
  if (usedBy.length > 0) {
    return (
      <div>
        <p className="notice notice--error" role="alert">
          <strong>{template.name}</strong> cannot be deleted:{" "}
          {usedBy.length === 1 ? "a campaign uses it" : `${usedBy.length} campaigns use it`} ({usedBy.join(", ")}). Delete{" "}
          {usedBy.length === 1 ? "that campaign" : "those campaigns"} or change {usedBy.length === 1 ? "its" : "their"} template first.
        </p>
        <p>
          <Link to="/admin/email-management/campaigns">Go to the campaigns</Link>
        </p>
        <div className="form-actions">
          <Link to={cancelTo} className="button button--secondary" preventScrollReset>
            Close
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ConfirmForm
      intent="delete"
      fields={{ templateId: template.id }}
      submitLabel="Delete template"
      cancelTo={cancelTo}
      error={error}
      errorId="delete-template-errors"
    >
      <p>
        Delete the template <strong>{template.name}</strong>? This cannot be undone.
      </p>
    </ConfirmForm>
  );
}

export type CampaignFormValues = {
  name: string;
  subject: string;
  templateId: number | null;
  htmlContent: string | null;
  textContent: string | null;
  recipientType: RecipientType;
  scheduleType: ScheduleType;
  scheduledAt: string | null;
  recurringPattern: RecurringPattern | null;
};

/** A stored ISO time as a datetime-local value in UTC ("2026-11-24T14:05"). */
const toLocalInput = (iso: string | null | undefined) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");

export function CampaignForm({
  id,
  intent,
  defaults,
  templates,
  audience,
  lastResult,
  submitLabel,
  cancelTo,
  withStart,
}: {
  id: string;
  intent: "create" | "update";
  defaults?: Partial<CampaignFormValues>;
  templates: Array<{ id: number; name: string }>;
  audience: Record<RecipientType, number>;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  cancelTo: string;
  /** a second button that saves and starts at once (send now, or schedule): no draft left to execute */
  withStart?: boolean;
}) {
  const [form, fields] = useForm<{
    name: string;
    subject: string;
    template_id: string;
    html_content: string;
    text_content: string;
    recipient_type: string;
    schedule_type: string;
    scheduled_at: string;
    recurring_pattern: string;
  }>({
    id,
    lastResult,
    defaultValue: {
      name: defaults?.name ?? "",
      subject: defaults?.subject ?? "",
      template_id: defaults?.templateId ? String(defaults.templateId) : "",
      html_content: defaults?.htmlContent ?? "",
      text_content: defaults?.textContent ?? "",
      recipient_type: defaults?.recipientType ?? "all",
      schedule_type: defaults?.scheduleType ?? "immediate",
      scheduled_at: toLocalInput(defaults?.scheduledAt),
      recurring_pattern: defaults?.recurringPattern ?? "",
    },
  });
  // without JavaScript every schedule field shows (each says when it applies); with it,
  // the time shows when scheduled or repeating and the pattern when repeating (spec)
  const initialSchedule = (fields.schedule_type.initialValue as string | undefined) ?? "immediate";
  const [schedule, setSchedule] = useState(initialSchedule);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const showTime = !hydrated || schedule !== "immediate";
  const showPattern = !hydrated || schedule === "recurring";
  const initialRecipient = ((fields.recipient_type.initialValue as string | undefined) ?? "all") as RecipientType;
  const [recipient, setRecipient] = useState<RecipientType>(RECIPIENT_TYPES.includes(initialRecipient) ? initialRecipient : "all");
  // the start button says what it will do; without JavaScript it cannot know the choice yet
  const startLabel = !hydrated
    ? "Send now / schedule"
    : schedule === "immediate"
      ? "Save and send now"
      : schedule === "scheduled"
        ? "Save and schedule"
        : "Save and start the series";
  const startHint = !hydrated
    ? "Saves and starts: with “Send now” it sends at once; a set time or a repeating campaign is scheduled."
    : schedule === "immediate"
      ? `Sends at once to ${audience[recipient]} recipient${audience[recipient] === 1 ? "" : "s"} (${RECIPIENT_LABELS[recipient].toLowerCase()}).`
      : undefined;

  return (
    // posts to the page's own address: the dialog (?modal=...) stays open with the errors
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="admin-form-grid">
        <Field id={fields.name.id} label="Name" errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
        <Field id={fields.subject.id} label="Subject" errors={fields.subject.errors} hint="Variables such as {{userName}} work here too.">
          <input {...getInputProps(fields.subject, { type: "text" })} maxLength={200} autoComplete="off" />
        </Field>
      </div>
      <Field
        id={fields.template_id.id}
        label="Template (optional)"
        errors={fields.template_id.errors}
        hint="Without a template, the body below is sent."
      >
        <select {...getSelectProps(fields.template_id)}>
          <option value="">No template: write the body below</option>
          {templates.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </select>
      </Field>
      <details className="email-body-fields" open={Boolean(defaults?.htmlContent) || Boolean(fields.html_content.errors?.length)}>
        <summary>Body for a campaign without a template</summary>
        <Field
          id={fields.html_content.id}
          label="HTML body"
          errors={fields.html_content.errors}
          hint={VARIABLE_HINT.replace(", plus your own below", "")}
        >
          <textarea {...getTextareaProps(fields.html_content)} rows={8} className="admin-textarea--mono" spellCheck={false} />
        </Field>
        <Field id={fields.text_content.id} label="Text body (optional)" errors={fields.text_content.errors}>
          <textarea {...getTextareaProps(fields.text_content)} rows={4} />
        </Field>
      </details>
      <fieldset className="admin-fieldset">
        <legend>Recipients</legend>
        {RECIPIENT_TYPES.map((type) => (
          <label key={type} className="admin-check">
            <input
              type="radio"
              name={fields.recipient_type.name}
              value={type}
              defaultChecked={initialRecipient === type}
              onChange={() => setRecipient(type)}
            />
            {RECIPIENT_LABELS[type]} <span className="muted">({audience[type]} now)</span>
          </label>
        ))}
        <p className="field__hint">Only users with a verified e-mail who have not unsubscribed. The list is fixed when sending starts.</p>
        <ErrorList id={`${fields.recipient_type.id}-error`} errors={fields.recipient_type.errors} />
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend>Schedule</legend>
        {SCHEDULE_TYPES.map((type) => (
          <label key={type} className="admin-check">
            <input
              type="radio"
              name={fields.schedule_type.name}
              value={type}
              defaultChecked={initialSchedule === type}
              onChange={() => setSchedule(type)}
            />
            {SCHEDULE_LABELS[type]}
          </label>
        ))}
        <ErrorList id={`${fields.schedule_type.id}-error`} errors={fields.schedule_type.errors} />
        <div className="admin-form-grid">
          {showTime ? (
            <Field
              id={fields.scheduled_at.id}
              label="Scheduled time (UTC)"
              errors={fields.scheduled_at.errors}
              hint={
                hydrated
                  ? schedule === "recurring"
                    ? "The first run; empty starts the series now."
                    : undefined
                  : "For “At a set time”; for “Repeating”, the first run (empty: now)."
              }
            >
              <input {...getInputProps(fields.scheduled_at, { type: "datetime-local" })} step={60} />
            </Field>
          ) : (
            <input type="hidden" name={fields.scheduled_at.name} value="" />
          )}
          {showPattern ? (
            <Field
              id={fields.recurring_pattern.id}
              label="Repeat"
              errors={fields.recurring_pattern.errors}
              hint={hydrated ? undefined : "For “Repeating” only."}
            >
              <select {...getSelectProps(fields.recurring_pattern)}>
                <option value="">Choose…</option>
                {RECURRING_PATTERNS.map((pattern) => (
                  <option key={pattern} value={pattern}>
                    {RECURRING_LABELS[pattern]}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
        </div>
      </fieldset>
      <SaveOrCancel label={submitLabel} cancelTo={cancelTo} secondary={withStart}>
        {withStart ? (
          <SubmitButton
            className="button"
            name="then"
            value="start"
            pendingText={schedule === "immediate" && hydrated ? "Sending…" : "Starting…"}
            aria-describedby={startHint ? `${id}-start-hint` : undefined}
          >
            {startLabel}
          </SubmitButton>
        ) : null}
      </SaveOrCancel>
      {withStart && startHint ? (
        <p className="field__hint" id={`${id}-start-hint`}>
          {startHint}
        </p>
      ) : null}
    </Form>
  );
}

/** What executing will do, in words, and the button that does it (a confirmation that needs no JavaScript). */
export function ExecuteCampaignForm({
  campaign,
  audience,
  action,
  returnTo,
  cancelTo,
  error,
}: {
  campaign: {
    id: number;
    name: string;
    schedule_type: ScheduleType;
    scheduled_at: string | null;
    recurring_pattern: RecurringPattern | null;
    recipient_type: RecipientType;
  };
  audience: number;
  action: string;
  returnTo: string;
  cancelTo: string;
  error?: string;
}) {
  const what =
    campaign.schedule_type === "immediate"
      ? `Send “${campaign.name}” now to ${audience} recipient${audience === 1 ? "" : "s"} (${RECIPIENT_LABELS[campaign.recipient_type].toLowerCase()})?`
      : campaign.schedule_type === "scheduled"
        ? `Schedule “${campaign.name}” for ${formatDateTime(campaign.scheduled_at)}? About ${audience} recipients today; the list is fixed when it starts.`
        : `Start “${campaign.name}”: ${campaign.recurring_pattern ? RECURRING_LABELS[campaign.recurring_pattern].toLowerCase() : ""}, from ${campaign.scheduled_at ? formatDateTime(campaign.scheduled_at) : "now"}? Each run goes to the recipients of that day.`;
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="returnTo" value={returnTo} />
      <p>{what}</p>
      <FormErrors id="execute-errors" errors={error ? [error] : []} />
      <div className="form-actions">
        <SubmitButton name="intent" value="execute" className="button" pendingText="Starting…">
          {campaign.schedule_type === "immediate" ? "Send now" : "Schedule"}
        </SubmitButton>
        <Link to={cancelTo} className="button button--secondary" preventScrollReset>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

export function DeleteCampaignForm({
  campaign,
  action,
  returnTo,
  cancelTo,
  error,
}: {
  campaign: { id: number; name: string; sent_count: number };
  action: string;
  returnTo: string;
  cancelTo: string;
  error?: string;
}) {
  return (
    <ConfirmForm
      action={action}
      intent="delete"
      fields={{ returnTo }}
      submitLabel="Delete campaign"
      cancelTo={cancelTo}
      error={error}
      errorId="delete-campaign-errors"
    >
      <p>
        Delete the campaign <strong>{campaign.name}</strong>? Its send log goes with it
        {campaign.sent_count ? ` (${campaign.sent_count} sent messages leave the statistics)` : ""}. This cannot be undone.
      </p>
    </ConfirmForm>
  );
}

/**
 * What may be done with a campaign in its status (docs/product/admin.md 4: execute only a draft,
 * pause only a sending one, edit only a draft, delete unless sending; a paused one
 * resumes, a scheduled one can go back to draft). Confirmations are dialogs chosen by the
 * URL; pause, resume and back-to-draft are one click (nothing is lost by them).
 */
export function CampaignActions({
  campaign,
  action,
  returnTo,
  hrefs,
  showView,
}: {
  campaign: { id: number; name: string; status: CampaignStatus };
  action: string;
  returnTo: string;
  hrefs: { execute: string; edit: string; delete: string };
  showView?: boolean;
}) {
  const allowed = campaignActions(campaign.status);
  const oneClick = (intent: string, label: string, pending: string, aria: string) => (
    <Form method="post" action={action} className="admin-inline-form" preventScrollReset>
      <input type="hidden" name="returnTo" value={returnTo} />
      <SubmitButton name="intent" value={intent} className="button button--secondary button--small" pendingText={pending} aria-label={aria}>
        {label}
      </SubmitButton>
    </Form>
  );
  return (
    <div className="admin-row-actions">
      {showView ? (
        <Link to={`/admin/email-management/campaigns/${campaign.id}`} aria-label={`Open ${campaign.name}`}>
          Open
        </Link>
      ) : null}
      {allowed.execute ? (
        <Link to={hrefs.execute} className="button button--small" aria-label={`Execute ${campaign.name}`} preventScrollReset>
          Execute
        </Link>
      ) : null}
      {allowed.resume ? oneClick("execute", "Resume", "Resuming…", `Resume ${campaign.name}`) : null}
      {allowed.pause ? oneClick("pause", "Pause", "Pausing…", `Pause ${campaign.name}`) : null}
      {allowed.unschedule ? oneClick("unschedule", "Back to draft", "Saving…", `Take ${campaign.name} back to draft`) : null}
      {allowed.edit ? (
        <Link to={hrefs.edit} aria-label={`Edit ${campaign.name}`} preventScrollReset>
          Edit
        </Link>
      ) : null}
      {allowed.delete ? (
        <Link to={hrefs.delete} className="admin-link--danger" aria-label={`Delete ${campaign.name}`} preventScrollReset>
          Delete
        </Link>
      ) : null}
    </div>
  );
}
