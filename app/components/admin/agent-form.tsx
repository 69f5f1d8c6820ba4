/**
 * The shopping-agent form (/admin/agents/new and /admin/agents/:id): a link template per
 * marketplace ({id}, {url}, {url2}), older forms read back, the referral parameter and
 * the site's code, and whether the agent is shown. A plain form, checked on the server.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";

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

const TEMPLATE_FIELDS = [
  ["template_weidian", "Weidian link template"],
  ["template_taobao", "Taobao link template"],
  ["template_tmall", "Tmall link template (empty: Tmall items use the Taobao one)"],
  ["template_1688", "1688 link template"],
] as const;

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
  const [form, fields] = useForm<Record<keyof AgentFormValues, string>>({
    id,
    lastResult,
    defaultValue: defaults ? { ...defaults, enabled: defaults.enabled ? "on" : "" } : { enabled: "on" },
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field id={fields.name.id} label="Name" errors={fields.name.errors}>
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={60} autoComplete="off" />
      </Field>
      <p className="admin-help">
        Write each link with <code>{"{id}"}</code> for the item id, <code>{"{url}"}</code> for the marketplace link (encoded once) or{" "}
        <code>{"{url2}"}</code> (encoded twice). The same templates read shoppers' pasted agent links back to the item.
      </p>
      {TEMPLATE_FIELDS.map(([name, label]) => (
        <Field key={name} id={fields[name].id} label={label} errors={fields[name].errors}>
          <input {...getInputProps(fields[name], { type: "text" })} maxLength={500} inputMode="url" autoComplete="off" spellCheck={false} />
        </Field>
      ))}
      <Field
        id={fields.read_patterns.id}
        label="Older link forms to read back (optional)"
        errors={fields.read_patterns.errors}
        hint="One per line: a marketplace, a space, a template."
      >
        <textarea {...getTextareaProps(fields.read_patterns)} rows={3} spellCheck={false} className="admin-textarea--mono" />
      </Field>
      <div className="admin-form-grid">
        <Field
          id={fields.referral_param.id}
          label="Referral parameter (optional)"
          errors={fields.referral_param.errors}
          hint="The name the agent reads, e.g. ref."
        >
          <input {...getInputProps(fields.referral_param, { type: "text" })} maxLength={40} autoComplete="off" />
        </Field>
        <Field
          id={fields.referral_code.id}
          label="Your referral code (optional)"
          errors={fields.referral_code.errors}
          hint="Added to every link when set."
        >
          <input {...getInputProps(fields.referral_code, { type: "text" })} maxLength={100} autoComplete="off" />
        </Field>
      </div>
      <label className="admin-check">
        <input {...getInputProps(fields.enabled, { type: "checkbox" })} />
        Shown on product pages
      </label>
      <div className="form-actions">
        <SubmitButton className="button" pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
        <Link to="/admin/agents" className="button button--secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
