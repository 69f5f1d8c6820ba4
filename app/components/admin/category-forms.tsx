/**
 * The forms of the category screens (create in the list's dialog or at
 * /admin/categories/new, edit, delete), each a plain <form method="post"> that works
 * without JavaScript.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "./emphasis";

export type ParentChoice = { id: number; name: string };
export type CategoryFormValues = { name: string; description: string | null; parentId: number | null; sortOrder: number };

export function CategoryForm({
  id,
  intent,
  parents,
  defaults,
  lastResult,
  submitLabel,
  cancelTo,
  parentHint,
}: {
  id: string;
  intent: "create" | "update";
  parents: ParentChoice[];
  defaults?: CategoryFormValues;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  cancelTo?: string;
  parentHint?: string;
}) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<{ name: string; description: string; parent_id: string; sort_order: string }>({
    id,
    lastResult,
    defaultValue: {
      name: defaults?.name ?? "",
      description: defaults?.description ?? "",
      parent_id: defaults?.parentId ? String(defaults.parentId) : "",
      sort_order: String(defaults?.sortOrder ?? 0),
    },
  });
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <Field id={fields.name.id} label={t("admin.categories.colName")} errors={fields.name.errors}>
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
      </Field>
      <Field id={fields.description.id} label={t("admin.productForm.description")} errors={fields.description.errors}>
        <textarea {...getTextareaProps(fields.description)} rows={3} maxLength={1000} />
      </Field>
      <div className="admin-form-grid">
        <Field
          id={fields.parent_id.id}
          label={t("admin.categoryForm.parent")}
          errors={fields.parent_id.errors}
          hint={parentHint ?? t("admin.categoryForm.parentHint")}
        >
          <select {...getSelectProps(fields.parent_id)}>
            <option value="">{t("admin.categoryForm.noParent")}</option>
            {parents.map((parent) => (
              <option key={parent.id} value={parent.id}>
                {parent.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id={fields.sort_order.id}
          label={t("admin.categories.colSort")}
          errors={fields.sort_order.errors}
          hint={t("admin.categoryForm.sortHint")}
        >
          <input {...getInputProps(fields.sort_order, { type: "number" })} min={0} step={1} inputMode="numeric" />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton className="button" pendingText={t("admin.common.saving")}>
          {submitLabel}
        </SubmitButton>
        {cancelTo ? (
          <Link to={cancelTo} className="button button--secondary" preventScrollReset>
            {t("admin.common.cancel")}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export function DeleteCategoryForm({
  category,
  error,
  cancelTo,
  returnTo,
}: {
  category: { id: number; name: string; productCount: number; childCount: number };
  error?: string;
  cancelTo: string;
  returnTo: string;
}) {
  const t = useT();
  return (
    <ConfirmForm
      action="/admin/categories?index"
      intent="delete"
      fields={{ categoryId: category.id, returnTo }}
      submitLabel={t("admin.categories.deleteTitle")}
      cancelTo={cancelTo}
      error={error}
      errorId="delete-category-errors"
    >
      <p>
        <Emphasis text={t("admin.categoryForm.deleteConfirm", { name: MARK })}>{category.name}</Emphasis>
      </p>
      {category.childCount > 0 ? (
        <p className="notice notice--warning">{t("admin.categoryForm.hasChildren", { count: category.childCount })}</p>
      ) : category.productCount > 0 ? (
        <p className="muted">{t("admin.categoryForm.productsLeft", { count: category.productCount })}</p>
      ) : null}
    </ConfirmForm>
  );
}
