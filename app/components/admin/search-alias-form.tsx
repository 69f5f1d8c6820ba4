/**
 * The search alias form (/admin/search-words and /admin/search-words/:id): what shoppers
 * type, what it also finds (separated by commas), and whether it works both ways. A
 * plain form, checked on the server.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { SEARCH_ALIAS_TERM_MAX } from "~/schemas/search-rules";
import { useI18n } from "~/i18n/i18n";

export type SearchAliasFormValues = { term: string; alternatives: string; both_ways: boolean };

export function SearchAliasForm({
  id,
  defaults,
  lastResult,
  submitLabel,
  cancelTo,
}: {
  id: string;
  defaults: SearchAliasFormValues | null;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  /** a Cancel link (the edit page) */
  cancelTo?: string;
}) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<Record<keyof SearchAliasFormValues, string>>({
    id,
    lastResult,
    defaultValue: defaults ? { ...defaults, both_ways: defaults.both_ways ? "on" : "" } : undefined,
  });
  // a too long word is reported on the word itself (alternatives[2]): shown under the field
  const alternativeErrors = Object.entries(form.allErrors)
    .filter(([name]) => name === "alternatives" || name.startsWith("alternatives["))
    .flatMap(([, errors]) => errors);
  return (
    <Form method="post" {...getFormProps(form)} className="search-alias-form">
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <div className="admin-form-grid">
        <Field
          id={fields.term.id}
          label={t("admin.searchWords.shoppersType")}
          errors={fields.term.errors}
          hint={t("admin.searchWords.termHint")}
        >
          <input {...getInputProps(fields.term, { type: "text" })} maxLength={SEARCH_ALIAS_TERM_MAX} autoComplete="off" />
        </Field>
        <Field
          id={fields.alternatives.id}
          label={t("admin.searchWords.alsoFinds")}
          errors={alternativeErrors.length ? [...new Set(alternativeErrors)] : undefined}
          hint={t("admin.searchWords.alsoFindsHint")}
        >
          <input {...getInputProps(fields.alternatives, { type: "text" })} autoComplete="off" />
        </Field>
      </div>
      <label className="admin-check">
        <input {...getInputProps(fields.both_ways, { type: "checkbox" })} />
        {t("admin.searchWords.bothWaysLabel")}
      </label>
      <div className="form-actions">
        <SubmitButton className="button" pendingText={t("admin.common.saving")}>
          {submitLabel}
        </SubmitButton>
        {cancelTo ? (
          <Link to={cancelTo} className="button button--secondary">
            {t("admin.common.cancel")}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
