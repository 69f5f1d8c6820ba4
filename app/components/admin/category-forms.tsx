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
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field id={fields.name.id} label="Name" errors={fields.name.errors}>
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={100} autoComplete="off" />
      </Field>
      <Field id={fields.description.id} label="Description (optional)" errors={fields.description.errors}>
        <textarea {...getTextareaProps(fields.description)} rows={3} maxLength={1000} />
      </Field>
      <div className="admin-form-grid">
        <Field
          id={fields.parent_id.id}
          label="Parent category"
          errors={fields.parent_id.errors}
          hint={parentHint ?? "Only top-level categories can hold subcategories."}
        >
          <select {...getSelectProps(fields.parent_id)}>
            <option value="">None (top level)</option>
            {parents.map((parent) => (
              <option key={parent.id} value={parent.id}>
                {parent.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.sort_order.id} label="Sort order" errors={fields.sort_order.errors} hint="Smaller comes first.">
          <input {...getInputProps(fields.sort_order, { type: "number" })} min={0} step={1} inputMode="numeric" />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton className="button" pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
        {cancelTo ? (
          <Link to={cancelTo} className="button button--secondary" preventScrollReset>
            Cancel
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
  return (
    <ConfirmForm
      action="/admin/categories?index"
      intent="delete"
      fields={{ categoryId: category.id, returnTo }}
      submitLabel="Delete category"
      cancelTo={cancelTo}
      error={error}
      errorId="delete-category-errors"
    >
      <p>
        Delete the category <strong>{category.name}</strong>? This cannot be undone.
      </p>
      {category.childCount > 0 ? (
        <p className="notice notice--warning">
          It has {category.childCount} subcategor{category.childCount === 1 ? "y" : "ies"}: move or delete them first.
        </p>
      ) : category.productCount > 0 ? (
        <p className="muted">
          Its {category.productCount} product{category.productCount === 1 ? "" : "s"} will be left without a category.
        </p>
      ) : null}
    </ConfirmForm>
  );
}
