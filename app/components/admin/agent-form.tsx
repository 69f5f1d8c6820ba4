/**
 * The shopping-agent form (/admin/agents/new and /admin/agents/:id): a link template per
 * marketplace ({id}, {url}, {url2}), older forms read back, the referral parameter and
 * the site's code, and whether the agent is shown. A plain form, checked on the server.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, type Translate } from "~/i18n/i18n";

export type AgentFormValues = {
  name: string;
  template_weidian: string;
  template_taobao: string;
  template_tmall: string;
  template_1688: string;
  read_patterns: string;
  referral_param: string;
  referral_code: string;
  enabled: boolean;
};

const TEMPLATE_FIELDS = ["template_weidian", "template_taobao", "template_tmall", "template_1688"] as const;

function templateLabel(t: Translate, name: (typeof TEMPLATE_FIELDS)[number]): string {
  switch (name) {
    case "template_weidian":
      return t("admin.agentForm.templateWeidian");
    case "template_taobao":
      return t("admin.agentForm.templateTaobao");
    case "template_tmall":
      return t("admin.agentForm.templateTmall");
    case "template_1688":
      return t("admin.agentForm.template1688");
  }
}

export function AgentForm({
  id,
  defaults,
  lastResult,
  submitLabel,
}: {
  id: string;
  defaults: AgentFormValues | null;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<Record<keyof AgentFormValues, string>>({
    id,
    lastResult,
    defaultValue: defaults ? { ...defaults, enabled: defaults.enabled ? "on" : "" } : { enabled: "on" },
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <Field id={fields.name.id} label={t("admin.agentForm.name")} errors={fields.name.errors}>
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={60} autoComplete="off" />
      </Field>
      <p className="admin-help">
        {t("admin.agentForm.help1")} <code>{"{id}"}</code> {t("admin.agentForm.help2")} <code>{"{url}"}</code> {t("admin.agentForm.help3")}{" "}
        <code>{"{url2}"}</code> {t("admin.agentForm.help4")}
      </p>
      {TEMPLATE_FIELDS.map((name) => (
        <Field key={name} id={fields[name].id} label={templateLabel(t, name)} errors={fields[name].errors}>
          <input {...getInputProps(fields[name], { type: "text" })} maxLength={500} inputMode="url" autoComplete="off" spellCheck={false} />
        </Field>
      ))}
      <Field
        id={fields.read_patterns.id}
        label={t("admin.agentForm.readPatterns")}
        errors={fields.read_patterns.errors}
        hint={t("admin.agentForm.readPatternsHint")}
      >
        <textarea {...getTextareaProps(fields.read_patterns)} rows={3} spellCheck={false} className="admin-textarea--mono" />
      </Field>
      <div className="admin-form-grid">
        <Field
          id={fields.referral_param.id}
          label={t("admin.agentForm.referralParam")}
          errors={fields.referral_param.errors}
          hint={t("admin.agentForm.referralParamHint")}
        >
          <input {...getInputProps(fields.referral_param, { type: "text" })} maxLength={40} autoComplete="off" />
        </Field>
        <Field
          id={fields.referral_code.id}
          label={t("admin.agentForm.referralCode")}
          errors={fields.referral_code.errors}
          hint={t("admin.agentForm.referralCodeHint")}
        >
          <input {...getInputProps(fields.referral_code, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
      </div>
      <label className="admin-check">
        <input {...getInputProps(fields.enabled, { type: "checkbox" })} />
        {t("admin.agentForm.enabled")}
      </label>
      <div className="form-actions">
        <SubmitButton className="button" pendingText={t("admin.common.saving")}>
          {submitLabel}
        </SubmitButton>
        <Link to="/admin/agents" className="button button--secondary">
          {t("admin.common.cancel")}
        </Link>
      </div>
    </Form>
  );
}
