/**
 * The forms of the admin user screens (create, batch create, delete, edit, reset
 * password), each a plain <form method="post"> that works without JavaScript.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { z } from "zod";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { USER_TYPE_LABELS, type UserType } from "~/lib/permissions";
import type {
  adminBatchFormSchema,
  adminCreateUserSchema,
  adminEditUserFormSchema,
  adminResetPasswordFormSchema,
} from "~/schemas/admin-users";
import { ADMIN_MESSAGES } from "~/schemas/admin-users-rules";

/** What a batch create answered when some lines failed. */
export type BatchOutcome = {
  result: SubmissionResult<string[]>;
  summary?: string;
  lineErrors?: Array<{ line: number; username: string; error: string }>;
};

export function DeleteUserForm({
  user,
  error,
  cancelTo,
}: {
  user: { id: number; username: string; email: string };
  error?: string;
  cancelTo: string;
}) {
  return (
    <ConfirmForm
      intent="delete"
      fields={{ userId: user.id }}
      submitLabel="Delete user"
      cancelTo={cancelTo}
      error={error}
      errorId="delete-user-errors"
    >
      <p>
        Delete <strong>{user.username}</strong> ({user.email})? This cannot be undone.
      </p>
    </ConfirmForm>
  );
}

export function CreateUserForm({
  roles,
  lastResult,
}: {
  roles: Array<{ id: number; name: string }>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm<z.input<typeof adminCreateUserSchema>>({
    id: "create-user-form",
    lastResult,
  });
  const selected = new Set(([] as unknown[]).concat(fields.roleIds.initialValue ?? []).map((value) => String(value)));
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value="create" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="admin-form-grid">
        <Field id={fields.username.id} label="Username" errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label="Email" errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        </Field>
        <Field id={fields.password.id} label="Password" errors={fields.password.errors} hint="At least 6 characters">
          <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
        </Field>
        <Field id={fields.phone.id} label="Phone (optional)" errors={fields.phone.errors}>
          <input {...getInputProps(fields.phone, { type: "tel" })} />
        </Field>
        <Field id={fields.firstName.id} label="First name (optional)" errors={fields.firstName.errors}>
          <input {...getInputProps(fields.firstName, { type: "text" })} />
        </Field>
        <Field id={fields.lastName.id} label="Last name (optional)" errors={fields.lastName.errors}>
          <input {...getInputProps(fields.lastName, { type: "text" })} />
        </Field>
      </div>
      {roles.length > 0 ? (
        <fieldset className="admin-fieldset">
          <legend>Roles</legend>
          {roles.map((role) => (
            <label key={role.id} className="admin-check">
              <input type="checkbox" name={fields.roleIds.name} value={role.id} defaultChecked={selected.has(String(role.id))} />
              {USER_TYPE_LABELS[role.name as UserType] ?? role.name} <code>{role.name}</code>
            </label>
          ))}
          <p className="field__hint">No role selected: an ordinary user.</p>
          <ErrorList id={`${fields.roleIds.id}-error`} errors={fields.roleIds.errors} />
        </fieldset>
      ) : (
        <p className="field__hint">The new account is an ordinary user; a super admin can assign roles later.</p>
      )}
      <div className="form-actions">
        <SubmitButton className="button" pendingText="Creating…">
          Create user
        </SubmitButton>
      </div>
    </Form>
  );
}

export function BatchCreateForm({ actionData }: { actionData?: BatchOutcome }) {
  const [form, fields] = useForm<z.input<typeof adminBatchFormSchema>>({
    id: "batch-create-form",
    lastResult: actionData?.result,
  });
  return (
    <>
      {actionData?.summary ? (
        <div className="notice notice--warning" role="alert">
          <p>
            <strong>{actionData.summary}</strong>
          </p>
          <ul className="admin-line-errors">
            {actionData.lineErrors?.map((item) => (
              <li key={item.line}>
                Line {item.line}
                {item.username ? ` (${item.username})` : ""}: {item.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <input type="hidden" name="intent" value="batch" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          id={fields.lines.id}
          label="Users, one per line"
          errors={fields.lines.errors}
          hint="username,email,password,firstName,lastName,phone — the first three are required"
        >
          <textarea
            {...getTextareaProps(fields.lines)}
            rows={8}
            className="admin-textarea--mono"
            placeholder={"alice,alice@example.com,secret123,Alice,Li,13800000000\nbob,bob@example.com,secret456"}
          />
        </Field>
        <div className="form-actions">
          <SubmitButton className="button" pendingText="Creating…">
            Create users
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}

type EditableUser = { username: string; email: string; phone: string; avatarUrl: string; isAdmin: boolean };

export function EditUserForm({
  user,
  canSetAdmin,
  lastResult,
}: {
  user: EditableUser;
  /** only a super admin grants or removes administrator access */
  canSetAdmin: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm<z.input<typeof adminEditUserFormSchema>>({
    id: "edit-user-form",
    lastResult,
    defaultValue: {
      username: user.username,
      email: user.email,
      phone: user.phone,
      avatar_url: user.avatarUrl,
      is_admin: user.isAdmin ? "on" : undefined,
    },
  });
  return (
    <section className="card" aria-labelledby="edit-user-title">
      <h2 id="edit-user-title">Profile</h2>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="update" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field id={fields.username.id} label="Username" errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label="Email" errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        </Field>
        <Field id={fields.phone.id} label="Phone" errors={fields.phone.errors}>
          <input {...getInputProps(fields.phone, { type: "tel" })} />
        </Field>
        <Field
          id={fields.avatar_url.id}
          label="Avatar URL"
          errors={fields.avatar_url.errors}
          hint="An avatar uploaded to this site by the user or by you (/uploads/avatars/…); empty removes it"
        >
          <input {...getInputProps(fields.avatar_url, { type: "text" })} />
        </Field>
        <div className="field">
          <label className="admin-check">
            <input {...getInputProps(fields.is_admin, { type: "checkbox" })} disabled={!canSetAdmin} />
            Administrator (is_admin: back-office access)
          </label>
          {canSetAdmin ? null : <p className="field__hint">{ADMIN_MESSAGES.onlySuperAdminSetsAdmin}.</p>}
          <ErrorList id={`${fields.is_admin.id}-error`} errors={fields.is_admin.errors} />
        </div>
        <div className="field admin-confirm">
          <label className="admin-check">
            <input {...getInputProps(fields.confirm, { type: "checkbox" })} required />
            {ADMIN_MESSAGES.saveConfirm}
          </label>
          <ErrorList id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
        </div>
        <div className="form-actions">
          <SubmitButton className="button" pendingText="Saving…">
            Save changes
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export function ResetPasswordForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<z.input<typeof adminResetPasswordFormSchema>>({
    id: "reset-password-form",
    lastResult,
  });
  return (
    <section className="card" aria-labelledby="reset-password-title">
      <h2 id="reset-password-title">Reset password</h2>
      <p className="muted">The new password works at once; the user's sessions and tokens end.</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="resetPassword" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field id={fields.newPassword.id} label="New password" errors={fields.newPassword.errors}>
          <input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
        <Field id={fields.confirmPassword.id} label="Confirm new password" errors={fields.confirmPassword.errors}>
          <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
        <div className="field admin-confirm">
          <label className="admin-check">
            <input {...getInputProps(fields.confirm, { type: "checkbox" })} required />
            {ADMIN_MESSAGES.passwordResetConfirm}
          </label>
          <ErrorList id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
        </div>
        <div className="form-actions">
          <SubmitButton className="button button--danger" pendingText="Resetting…">
            Reset password
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
