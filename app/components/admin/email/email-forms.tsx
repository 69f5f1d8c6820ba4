/**
 * The forms of the e-mail marketing screens (template create/edit/delete, campaign
 * create/edit, execute and delete confirmations), each a plain <form method="post"> that
 * works without JavaScript; the server validates (decision 008).
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { TimeZoneField, useZonedTime } from "~/components/admin/time-zone";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, useT, type Translate } from "~/i18n/i18n";
import { Emphasis, MARK } from "~/components/admin/emphasis";
import { recipientLabel, recurringLabel, scheduleLabel } from "./email-parts";
import {
  BUILTIN_VARIABLES,
  campaignActions,
  RECIPIENT_TYPES,
  RECURRING_PATTERNS,
  SCHEDULE_TYPES,
  type CampaignStatus,
  type RecipientType,
  type RecurringPattern,
  type ScheduleType,
} from "~/schemas/email-rules";

const BUILTIN_LIST = BUILTIN_VARIABLES.map((name) => `{{${name}}}`).join(" ");
const variableHint = (t: Translate) => t("admin.emailForms.variableHint", { list: BUILTIN_LIST });

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
  const t = useT();
  return (
    <div className="form-actions">
      {/* first in the form: Enter in a field saves, it never sends */}
      <SubmitButton className={secondary ? "button button--secondary" : "button"} pendingText={t("admin.common.saving")}>
        {label}
      </SubmitButton>
      {children}
      <Link to={cancelTo} className="button button--secondary" preventScrollReset>
        {t("admin.common.cancel")}
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
  const { t, message } = useI18n();
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
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <div className="admin-form-grid">
        <Field id={fields.name.id} label={t("admin.agentForm.name")} errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
        <Field id={fields.subject.id} label={t("admin.emailForms.subject")} errors={fields.subject.errors}>
          <input {...getInputProps(fields.subject, { type: "text" })} maxLength={200} autoComplete="off" />
        </Field>
      </div>
      <Field
        id={fields.html_content.id}
        label={t("admin.emailForms.htmlContent")}
        errors={fields.html_content.errors}
        hint={variableHint(t)}
      >
        <textarea {...getTextareaProps(fields.html_content)} rows={12} className="admin-textarea--mono" spellCheck={false} />
      </Field>
      <Field
        id={fields.text_content.id}
        label={t("admin.emailForms.textContent")}
        errors={fields.text_content.errors}
        hint={t("admin.emailForms.textContentHint")}
      >
        <textarea {...getTextareaProps(fields.text_content)} rows={6} />
      </Field>
      <Field
        id={fields.template_variables.id}
        label={t("admin.emailForms.variables")}
        errors={fields.template_variables.errors}
        hint={t("admin.emailForms.variablesHint", { example: "{{promoCode}}" })}
      >
        <textarea {...getTextareaProps(fields.template_variables)} rows={3} className="admin-textarea--mono" spellCheck={false} />
      </Field>
      <SaveOrCancel label={submitLabel} cancelTo={cancelTo}>
        {withTest ? (
          <SubmitButton className="button button--secondary" name="then" value="test" pendingText={t("admin.emailForms.sendingTest")}>
            {t("admin.emailForms.saveAndTest")}
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
  const t = useT();
  if (usedBy.length > 0) {
    return (
      <div>
        <p className="notice notice--error" role="alert">
          <Emphasis text={t("admin.emailForms.templateInUse", { name: MARK, count: usedBy.length, list: usedBy.join(", ") })}>
            {template.name}
          </Emphasis>
        </p>
        <p>
          <Link to="/admin/email-management/campaigns">{t("admin.emailForms.goToCampaigns")}</Link>
        </p>
        <div className="form-actions">
          <Link to={cancelTo} className="button button--secondary" preventScrollReset>
            {t("admin.common.close")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ConfirmForm
      intent="delete"
      fields={{ templateId: template.id }}
      submitLabel={t("admin.emailForms.deleteTemplate")}
      cancelTo={cancelTo}
      error={error}
      errorId="delete-template-errors"
    >
      <p>
        <Emphasis text={t("admin.emailForms.deleteTemplateConfirm", { name: MARK })}>{template.name}</Emphasis>
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
  const { t, message } = useI18n();
  const zoned = useZonedTime();
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
      scheduled_at: zoned.input(defaults?.scheduledAt),
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
    ? t("admin.emailForms.startUnknown")
    : schedule === "immediate"
      ? t("admin.emailForms.saveAndSend")
      : schedule === "scheduled"
        ? t("admin.emailForms.saveAndSchedule")
        : t("admin.emailForms.saveAndStartSeries");
  const startHint = !hydrated
    ? t("admin.emailForms.startHintUnknown")
    : schedule === "immediate"
      ? t("admin.emailForms.startHintNow", { count: audience[recipient], who: recipientLabel(t, recipient).toLowerCase() })
      : undefined;

  return (
    // posts to the page's own address: the dialog (?modal=...) stays open with the errors
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <div className="admin-form-grid">
        <Field id={fields.name.id} label={t("admin.agentForm.name")} errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
        <Field
          id={fields.subject.id}
          label={t("admin.emailForms.subject")}
          errors={fields.subject.errors}
          hint={t("admin.emailForms.subjectHint", { example: "{{userName}}" })}
        >
          <input {...getInputProps(fields.subject, { type: "text" })} maxLength={200} autoComplete="off" />
        </Field>
      </div>
      <Field
        id={fields.template_id.id}
        label={t("admin.emailForms.template")}
        errors={fields.template_id.errors}
        hint={t("admin.emailForms.templateHint")}
      >
        <select {...getSelectProps(fields.template_id)}>
          <option value="">{t("admin.emailForms.noTemplate")}</option>
          {templates.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </select>
      </Field>
      <details className="email-body-fields" open={Boolean(defaults?.htmlContent) || Boolean(fields.html_content.errors?.length)}>
        <summary>{t("admin.emailForms.bodySummary")}</summary>
        <Field
          id={fields.html_content.id}
          label={t("admin.emailForms.htmlBody")}
          errors={fields.html_content.errors}
          hint={t("admin.emailForms.variableHintBuiltIn", { list: BUILTIN_LIST })}
        >
          <textarea {...getTextareaProps(fields.html_content)} rows={8} className="admin-textarea--mono" spellCheck={false} />
        </Field>
        <Field id={fields.text_content.id} label={t("admin.emailForms.textBody")} errors={fields.text_content.errors}>
          <textarea {...getTextareaProps(fields.text_content)} rows={4} />
        </Field>
      </details>
      <fieldset className="admin-fieldset">
        <legend>{t("admin.emailForms.recipients")}</legend>
        {RECIPIENT_TYPES.map((type) => (
          <label key={type} className="admin-check">
            <input
              type="radio"
              name={fields.recipient_type.name}
              value={type}
              defaultChecked={initialRecipient === type}
              onChange={() => setRecipient(type)}
            />
            {recipientLabel(t, type)} <span className="muted">({t("admin.emailForms.nowCount", { count: audience[type] })})</span>
          </label>
        ))}
        <p className="field__hint">{t("admin.emailForms.recipientsHint")}</p>
        <ErrorList id={`${fields.recipient_type.id}-error`} errors={fields.recipient_type.errors} />
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend>{t("admin.emailForms.schedule")}</legend>
        {SCHEDULE_TYPES.map((type) => (
          <label key={type} className="admin-check">
            <input
              type="radio"
              name={fields.schedule_type.name}
              value={type}
              defaultChecked={initialSchedule === type}
              onChange={() => setSchedule(type)}
            />
            {scheduleLabel(t, type)}
          </label>
        ))}
        <ErrorList id={`${fields.schedule_type.id}-error`} errors={fields.schedule_type.errors} />
        <div className="admin-form-grid">
          {showTime ? (
            <Field
              id={fields.scheduled_at.id}
              label={t("admin.emailForms.scheduledTime", { zone: zoned.label })}
              errors={fields.scheduled_at.errors}
              hint={
                hydrated ? (schedule === "recurring" ? t("admin.emailForms.firstRun") : undefined) : t("admin.emailForms.scheduledTimeHint")
              }
            >
              <input {...getInputProps(fields.scheduled_at, { type: "datetime-local" })} step={60} />
              <TimeZoneField />
            </Field>
          ) : (
            <input type="hidden" name={fields.scheduled_at.name} value="" />
          )}
          {showPattern ? (
            <Field
              id={fields.recurring_pattern.id}
              label={t("admin.emailForms.repeat")}
              errors={fields.recurring_pattern.errors}
              hint={hydrated ? undefined : t("admin.emailForms.repeatHint")}
            >
              <select {...getSelectProps(fields.recurring_pattern)}>
                <option value="">{t("admin.emailForms.choose")}</option>
                {RECURRING_PATTERNS.map((pattern) => (
                  <option key={pattern} value={pattern}>
                    {recurringLabel(t, pattern)}
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
            pendingText={schedule === "immediate" && hydrated ? t("admin.emailForms.sending") : t("admin.imports.starting")}
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
  const { t, message } = useI18n();
  const zoned = useZonedTime();
  const what =
    campaign.schedule_type === "immediate"
      ? t("admin.emailForms.executeNow", {
          name: campaign.name,
          count: audience,
          who: recipientLabel(t, campaign.recipient_type).toLowerCase(),
        })
      : campaign.schedule_type === "scheduled"
        ? t("admin.emailForms.executeScheduled", { name: campaign.name, at: zoned.format(campaign.scheduled_at), count: audience })
        : t("admin.emailForms.executeRecurring", {
            name: campaign.name,
            pattern: campaign.recurring_pattern ? recurringLabel(t, campaign.recurring_pattern).toLowerCase() : "",
            from: campaign.scheduled_at ? zoned.format(campaign.scheduled_at) : t("admin.emailForms.now"),
          });
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="returnTo" value={returnTo} />
      <p>{what}</p>
      <FormErrors id="execute-errors" errors={error ? [message(error)] : []} />
      <div className="form-actions">
        <SubmitButton name="intent" value="execute" className="button" pendingText={t("admin.imports.starting")}>
          {campaign.schedule_type === "immediate" ? t("admin.email.scheduleImmediate") : t("admin.emailForms.scheduleButton")}
        </SubmitButton>
        <Link to={cancelTo} className="button button--secondary" preventScrollReset>
          {t("admin.common.cancel")}
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
  const t = useT();
  return (
    <ConfirmForm
      action={action}
      intent="delete"
      fields={{ returnTo }}
      submitLabel={t("admin.emailForms.deleteCampaign")}
      cancelTo={cancelTo}
      error={error}
      errorId="delete-campaign-errors"
    >
      <p>
        <Emphasis
          text={
            campaign.sent_count
              ? t("admin.emailForms.deleteCampaignSent", { name: MARK, count: campaign.sent_count })
              : t("admin.emailForms.deleteCampaignConfirm", { name: MARK })
          }
        >
          {campaign.name}
        </Emphasis>
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
  const t = useT();
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
        <Link to={`/admin/email-management/campaigns/${campaign.id}`} aria-label={t("admin.emailForms.openName", { name: campaign.name })}>
          {t("admin.emailForms.open")}
        </Link>
      ) : null}
      {allowed.execute ? (
        <Link
          to={hrefs.execute}
          className="button button--small"
          aria-label={t("admin.emailForms.executeName", { name: campaign.name })}
          preventScrollReset
        >
          {t("admin.emailForms.execute")}
        </Link>
      ) : null}
      {allowed.resume
        ? oneClick(
            "execute",
            t("admin.emailForms.resume"),
            t("admin.emailForms.resuming"),
            t("admin.emailForms.resumeName", { name: campaign.name }),
          )
        : null}
      {allowed.pause
        ? oneClick(
            "pause",
            t("admin.emailForms.pause"),
            t("admin.emailForms.pausing"),
            t("admin.emailForms.pauseName", { name: campaign.name }),
          )
        : null}
      {allowed.unschedule
        ? oneClick(
            "unschedule",
            t("admin.emailForms.backToDraft"),
            t("admin.common.saving"),
            t("admin.emailForms.backToDraftName", { name: campaign.name }),
          )
        : null}
      {allowed.edit ? (
        <Link to={hrefs.edit} aria-label={t("admin.common.editName", { name: campaign.name })} preventScrollReset>
          {t("admin.common.edit")}
        </Link>
      ) : null}
      {allowed.delete ? (
        <Link
          to={hrefs.delete}
          className="admin-link--danger"
          aria-label={t("admin.common.deleteName", { name: campaign.name })}
          preventScrollReset
        >
          {t("admin.common.delete")}
        </Link>
      ) : null}
    </div>
  );
}
