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
import type { UserType } from "~/lib/permissions";
import { useI18n, useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "./emphasis";
import { useUserTypeLabel } from "./user-type-badge";
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
  const t = useT();
  return (
    <ConfirmForm
      intent="delete"
      fields={{ userId: user.id }}
      submitLabel={t("admin.users.deleteUser")}
      cancelTo={cancelTo}
      error={error}
      errorId="delete-user-errors"
    >
      <p>
        <Emphasis text={t("admin.users.deleteConfirm", { name: MARK, email: user.email })}>{user.username}</Emphasis>
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
  const { t, message } = useI18n();
  const userTypeLabel = useUserTypeLabel();
  const [form, fields] = useForm<z.input<typeof adminCreateUserSchema>>({
    id: "create-user-form",
    lastResult,
  });
  const selected = new Set(([] as unknown[]).concat(fields.roleIds.initialValue ?? []).map((value) => String(value)));
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value="create" />
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <div className="admin-form-grid">
        <Field id={fields.username.id} label={t("admin.users.username")} errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label={t("admin.users.email")} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        </Field>
        <Field
          id={fields.password.id}
          label={t("admin.users.password")}
          errors={fields.password.errors}
          hint={t("admin.users.passwordHint")}
        >
          <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
        </Field>
        <Field id={fields.phone.id} label={t("admin.users.phoneOptional")} errors={fields.phone.errors}>
          <input {...getInputProps(fields.phone, { type: "tel" })} />
        </Field>
        <Field id={fields.firstName.id} label={t("admin.users.firstName")} errors={fields.firstName.errors}>
          <input {...getInputProps(fields.firstName, { type: "text" })} />
        </Field>
        <Field id={fields.lastName.id} label={t("admin.users.lastName")} errors={fields.lastName.errors}>
          <input {...getInputProps(fields.lastName, { type: "text" })} />
        </Field>
      </div>
      {roles.length > 0 ? (
        <fieldset className="admin-fieldset">
          <legend>{t("admin.users.roles")}</legend>
          {roles.map((role) => (
            <label key={role.id} className="admin-check">
              <input type="checkbox" name={fields.roleIds.name} value={role.id} defaultChecked={selected.has(String(role.id))} />
              {["super_admin", "admin", "user"].includes(role.name) ? userTypeLabel(role.name as UserType) : role.name}{" "}
              <code>{role.name}</code>
            </label>
          ))}
          <p className="field__hint">{t("admin.users.noRoleHint")}</p>
          <ErrorList id={`${fields.roleIds.id}-error`} errors={fields.roleIds.errors} />
        </fieldset>
      ) : (
        <p className="field__hint">{t("admin.users.ordinaryHint")}</p>
      )}
      <div className="form-actions">
        <SubmitButton className="button" pendingText={t("admin.users.creating")}>
          {t("admin.users.createUser")}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function BatchCreateForm({ actionData }: { actionData?: BatchOutcome }) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<z.input<typeof adminBatchFormSchema>>({
    id: "batch-create-form",
    lastResult: actionData?.result,
  });
  return (
    <>
      {actionData?.summary ? (
        <div className="notice notice--warning" role="alert">
          <p>
            <strong>{message(actionData.summary)}</strong>
          </p>
          <ul className="admin-line-errors">
            {actionData.lineErrors?.map((item) => (
              <li key={item.line}>
                {t("admin.users.line", { n: item.line })}
                {item.username ? ` (${item.username})` : ""}: {message(item.error)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} preventScrollReset>
        <input type="hidden" name="intent" value="batch" />
        <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
        <Field id={fields.lines.id} label={t("admin.users.batchLabel")} errors={fields.lines.errors} hint={t("admin.users.batchHint")}>
          <textarea
            {...getTextareaProps(fields.lines)}
            rows={8}
            className="admin-textarea--mono"
            placeholder={"alice,alice@example.com,secret123,Alice,Li,13800000000\nbob,bob@example.com,secret456"}
          />
        </Field>
        <div className="form-actions">
          <SubmitButton className="button" pendingText={t("admin.users.creating")}>
            {t("admin.users.createUsers")}
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
  const { t, message } = useI18n();
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
      <h2 id="edit-user-title">{t("admin.users.profile")}</h2>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="update" />
        <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
        <Field id={fields.username.id} label={t("admin.users.username")} errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label={t("admin.users.email")} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="off" />
        </Field>
        <Field id={fields.phone.id} label={t("admin.users.phone")} errors={fields.phone.errors}>
          <input {...getInputProps(fields.phone, { type: "tel" })} />
        </Field>
        <Field
          id={fields.avatar_url.id}
          label={t("admin.users.avatarUrl")}
          errors={fields.avatar_url.errors}
          hint={t("admin.users.avatarHint")}
        >
          <input {...getInputProps(fields.avatar_url, { type: "text" })} />
        </Field>
        <div className="field">
          <label className="admin-check">
            <input {...getInputProps(fields.is_admin, { type: "checkbox" })} disabled={!canSetAdmin} />
            {t("admin.users.isAdmin")}
          </label>
          {canSetAdmin ? null : <p className="field__hint">{message(ADMIN_MESSAGES.onlySuperAdminSetsAdmin)}.</p>}
          <ErrorList id={`${fields.is_admin.id}-error`} errors={fields.is_admin.errors} />
        </div>
        <div className="field admin-confirm">
          <label className="admin-check">
            <input {...getInputProps(fields.confirm, { type: "checkbox" })} required />
            {message(ADMIN_MESSAGES.saveConfirm)}
          </label>
          <ErrorList id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
        </div>
        <div className="form-actions">
          <SubmitButton className="button" pendingText={t("admin.common.saving")}>
            {t("admin.users.saveChanges")}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export function ResetPasswordForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<z.input<typeof adminResetPasswordFormSchema>>({
    id: "reset-password-form",
    lastResult,
  });
  return (
    <section className="card" aria-labelledby="reset-password-title">
      <h2 id="reset-password-title">{t("admin.users.resetPassword")}</h2>
      <p className="muted">{t("admin.users.resetHelp")}</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="resetPassword" />
        <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
        <Field id={fields.newPassword.id} label={t("admin.users.newPassword")} errors={fields.newPassword.errors}>
          <input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
        <Field id={fields.confirmPassword.id} label={t("admin.users.confirmPassword")} errors={fields.confirmPassword.errors}>
          <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
        <div className="field admin-confirm">
          <label className="admin-check">
            <input {...getInputProps(fields.confirm, { type: "checkbox" })} required />
            {message(ADMIN_MESSAGES.passwordResetConfirm)}
          </label>
          <ErrorList id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
        </div>
        <div className="form-actions">
          <SubmitButton className="button button--danger" pendingText={t("admin.users.resetting")}>
            {t("admin.users.resetPassword")}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
