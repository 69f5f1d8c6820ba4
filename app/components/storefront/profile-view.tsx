/**
 * The account page (/profile): the header (avatar, name, role, member since, last login)
 * and four cards of plain forms that work without JavaScript: the details (a new e-mail
 * needs the current password, or a code mailed to the current address; then the code sent
 * to the new one confirms it), the avatar, the password, and the marketing mail choice.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { z } from "zod";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, type Translate } from "~/i18n/i18n";
import type { UserType } from "~/lib/permissions";
import type { confirmEmailFormSchema, passwordFormSchema, profileFormSchema } from "~/schemas/account-forms";
import { PASSWORD_MIN } from "~/schemas/auth-rules";

type ProfileIntent = "profile" | "confirm-email" | "cancel-email" | "avatar" | "password" | "marketing";

/** What the page's forms answer when they do not redirect. */
type ProfileActionData = { intent: ProfileIntent; result: SubmissionResult<string[]> };

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type ProfileData = {
  user: {
    username: string;
    email: string;
    phone: string;
    avatarUrl: string | null;
    emailVerified: boolean;
    pendingEmail: string | null;
    hasPassword: boolean;
    createdAt: string;
    lastLoginAt: string | null;
    lastLoginIp: string | null;
  };
  userType: UserType;
  marketingMail: boolean;
};

/** The name of a user type in the reader's language. */
function roleName(t: Translate, userType: UserType): string {
  switch (userType) {
    case "super_admin":
      return t("shop.profile.roleSuperAdmin");
    case "admin":
      return t("shop.profile.roleAdmin");
    default:
      return t("shop.profile.roleUser");
  }
}

const formatDate = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16).replace("T", " ") + " UTC" : "—");

/** The page: the route keys it by the last save (updatedAt), so the forms start again from the saved values. */
export function ProfileView({ data, actionData }: { data: ProfileData; actionData?: ProfileActionData }) {
  const { user, userType, marketingMail } = data;
  const { t } = useI18n();
  const resultFor = (intent: ProfileIntent) => (actionData?.intent === intent ? actionData.result : undefined);

  const [profileForm, profileFields] = useForm<z.input<typeof profileFormSchema>>({
    id: "profile-form",
    lastResult: resultFor("profile"),
    defaultValue: { username: user.username, email: user.email, phone: user.phone },
  });
  const [emailForm, emailFields] = useForm<z.input<typeof confirmEmailFormSchema>>({
    id: "confirm-email-form",
    lastResult: resultFor("confirm-email"),
  });
  const [passwordForm, passwordFields] = useForm<z.input<typeof passwordFormSchema>>({
    id: "password-form",
    lastResult: resultFor("password"),
  });
  const avatarErrors = (resultFor("avatar")?.error?.avatar as string[] | undefined) ?? undefined;

  return (
    <div className="profile-page">
      <header className="profile-header">
        {user.avatarUrl ? (
          <img className="avatar avatar--large" src={user.avatarUrl} alt={t("shop.profile.yourAvatar")} width={96} height={96} />
        ) : (
          <span className="avatar avatar--large avatar--placeholder" aria-hidden="true">
            {user.username.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <h1>{user.username}</h1>
          <p className="muted">
            {roleName(t, userType)} · {t("shop.profile.memberSince", { date: formatDate(user.createdAt).slice(0, 10) })} ·{" "}
            {t("shop.profile.lastLogin", { date: formatDate(user.lastLoginAt) })}
            {user.lastLoginIp ? ` ${t("shop.profile.from", { ip: user.lastLoginIp })}` : ""}
          </p>
        </div>
      </header>

      <div className="profile-grid">
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">{t("shop.profile.details")}</h2>
          <Form method="post" {...getFormProps(profileForm)}>
            <input type="hidden" name="intent" value="profile" />
            <FormErrors id={profileForm.errorId} errors={profileForm.errors} />
            <Field id={profileFields.username.id} label={t("shop.profile.username")} errors={profileFields.username.errors}>
              <input {...getInputProps(profileFields.username, { type: "text" })} autoComplete="username" />
            </Field>
            <Field
              id={profileFields.email.id}
              label={t("shop.profile.email")}
              errors={profileFields.email.errors}
              hint={user.emailVerified ? t("shop.profile.verified") : t("shop.profile.notVerified")}
            >
              <input {...getInputProps(profileFields.email, { type: "email" })} autoComplete="email" />
            </Field>
            <EmailChangeProof user={user} fields={profileFields} />
            <Field id={profileFields.phone.id} label={t("shop.profile.phone")} errors={profileFields.phone.errors}>
              <input {...getInputProps(profileFields.phone, { type: "tel" })} autoComplete="tel" />
            </Field>
            <SubmitButton className="button" name="intent" value="profile" pendingText={t("shop.auth.saving")}>
              {t("shop.profile.saveChanges")}
            </SubmitButton>
          </Form>

          {user.pendingEmail ? (
            <div className="notice notice--info">
              <p>
                {`${t("shop.profile.waitingFor")} `}
                <strong>{user.pendingEmail}</strong>
                {t("shop.profile.enterCode")}
              </p>
              <Form method="post" {...getFormProps(emailForm)}>
                <input type="hidden" name="intent" value="confirm-email" />
                <FormErrors id={emailForm.errorId} errors={emailForm.errors} />
                <Field id={emailFields.code.id} label={t("shop.profile.code")} errors={emailFields.code.errors}>
                  <input
                    {...getInputProps(emailFields.code, { type: "text" })}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                  />
                </Field>
                <div className="form-actions">
                  <SubmitButton className="button" name="intent" value="confirm-email" pendingText={t("shop.profile.confirming")}>
                    {t("shop.profile.confirmEmail")}
                  </SubmitButton>
                </div>
              </Form>
              <Form method="post">
                <button type="submit" name="intent" value="cancel-email" className="button--link">
                  {t("shop.profile.cancelChange")}
                </button>
              </Form>
            </div>
          ) : null}
        </section>

        <section className="card" aria-labelledby="avatar-title">
          <h2 id="avatar-title">{t("shop.profile.avatar")}</h2>
          <Form method="post" encType="multipart/form-data" id="avatar-form">
            <div className="field">
              <label htmlFor="avatar">{t("shop.profile.chooseAvatar")}</label>
              <input id="avatar" name="avatar" type="file" accept="image/*" required aria-describedby="avatar-error" />
              <ErrorList id="avatar-error" errors={avatarErrors} />
            </div>
            <SubmitButton className="button" pendingText={t("shop.profile.uploading")}>
              {t("shop.profile.uploadAvatar")}
            </SubmitButton>
          </Form>
        </section>

        <section className="card" aria-labelledby="password-title">
          <h2 id="password-title">{user.hasPassword ? t("shop.profile.changePassword") : t("shop.profile.setAPassword")}</h2>
          <p className="muted">{t("shop.profile.passwordNote")}</p>
          <Form method="post" {...getFormProps(passwordForm)}>
            <input type="hidden" name="intent" value="password" />
            <FormErrors id={passwordForm.errorId} errors={passwordForm.errors} />
            {user.hasPassword ? (
              <Field
                id={passwordFields.currentPassword.id}
                label={t("shop.profile.currentPassword")}
                errors={passwordFields.currentPassword.errors}
              >
                <input {...getInputProps(passwordFields.currentPassword, { type: "password" })} autoComplete="current-password" />
              </Field>
            ) : null}
            <Field
              id={passwordFields.newPassword.id}
              label={t("shop.reset.newPassword")}
              errors={passwordFields.newPassword.errors}
              hint={t("shop.auth.passwordHint", { min: PASSWORD_MIN })}
            >
              <input {...getInputProps(passwordFields.newPassword, { type: "password" })} autoComplete="new-password" />
            </Field>
            <Field
              id={passwordFields.confirmPassword.id}
              label={t("shop.reset.confirmPassword")}
              errors={passwordFields.confirmPassword.errors}
            >
              <input {...getInputProps(passwordFields.confirmPassword, { type: "password" })} autoComplete="new-password" />
            </Field>
            <SubmitButton className="button" name="intent" value="password" pendingText={t("shop.auth.saving")}>
              {user.hasPassword ? t("shop.profile.changePassword") : t("shop.profile.setPassword")}
            </SubmitButton>
          </Form>
        </section>

        <section className="card" aria-labelledby="mail-title">
          <h2 id="mail-title">{t("shop.profile.mailTitle")}</h2>
          <p className="muted">{t("shop.profile.mailNote")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="marketing" />
            {/* keyed by the stored choice: after saving, the box shows what the server kept */}
            <label className="profile-check" key={String(marketingMail)}>
              <input type="checkbox" name="marketing" defaultChecked={marketingMail} /> {t("shop.profile.mailCheck")}
            </label>
            <SubmitButton className="button" name="intent" value="marketing" pendingText={t("shop.auth.saving")}>
              {t("shop.profile.mailSave")}
            </SubmitButton>
          </Form>
        </section>
      </div>
    </div>
  );
}

/**
 * What proves the account holder when the e-mail changes, beside the e-mail field: the
 * current password; for an account without one, the code mailed to the current address,
 * shown once the server has sent it (the first save of a new address sends it).
 */
function EmailChangeProof({
  user,
  fields,
}: {
  user: { email: string; hasPassword: boolean };
  fields: ReturnType<typeof useForm<z.input<typeof profileFormSchema>>>[1];
}) {
  const { t } = useI18n();
  if (user.hasPassword) {
    return (
      <Field
        id={fields.currentPassword.id}
        label={t("shop.profile.emailPassword")}
        errors={fields.currentPassword.errors}
        hint={t("shop.profile.emailPasswordHint")}
      >
        <input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" />
      </Field>
    );
  }
  const code = fields.currentEmailCode;
  if (!code.errors?.length && !code.initialValue) return <p className="field__hint">{t("shop.profile.emailCodeFirst")}</p>;
  return (
    <Field
      id={code.id}
      label={t("shop.profile.currentEmailCode")}
      errors={code.errors}
      hint={t("shop.profile.currentEmailCodeHint", { email: user.email })}
    >
      <input {...getInputProps(code, { type: "text" })} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
    </Field>
  );
}
