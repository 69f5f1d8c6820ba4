import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorList, Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/services/permissions.server";
import { USER_TYPE_LABELS } from "~/lib/permissions";
import { getSessionUserId } from "~/services/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { confirmEmailFormSchema, passwordFormSchema, profileFormSchema } from "~/schemas/account-forms";
import { MESSAGES, PASSWORD_MIN } from "~/schemas/auth-rules";
import { confirmEmailChange } from "~/services/auth.server";
import { getsMarketingMail, setMarketingMail } from "~/services/unsubscribe.server";
import { cancelEmailChange, changeOwnPassword, replaceAvatar, updateOwnProfile } from "~/services/users.server";
import { useI18n, type Translate } from "~/i18n/i18n";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";
import type { UserType } from "~/lib/permissions";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireUser(request);
  return {
    user: {
      username: user.username,
      email: user.email,
      phone: user.phone ?? "",
      avatarUrl: user.avatarUrl,
      emailVerified: user.emailVerified,
      pendingEmail: user.pendingEmail,
      hasPassword: user.hasPassword,
      googleLinked: user.googleLinked,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
      lastLoginAt: user.lastLoginAt,
      lastLoginIp: user.lastLoginIp,
    },
    role: USER_TYPE_LABELS[access.userType],
    userType: access.userType,
    marketingMail: await getsMarketingMail(user.id),
  };
}

type Intent = "profile" | "confirm-email" | "cancel-email" | "avatar" | "password" | "marketing";
type ActionData = { intent: Intent; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const language = readLanguage(request);
  const t = translatorFor(language);

  // the avatar form is the only multipart one
  if ((request.headers.get("Content-Type") ?? "").includes("multipart/form-data")) {
    const fail = (message: string): ActionData => ({
      intent: "avatar",
      result: { status: "error", error: { avatar: [message] } } as SubmissionResult<string[]>,
    });
    try {
      await replaceAvatar(request, user, "avatar", context.clientIp);
    } catch (error) {
      if (error instanceof ApiError) return fail(error.message);
      throw error;
    }
    return redirectWithToast("/profile", { message: t("shop.profile.avatarSaved") });
  }

  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "") as Intent;

  if (intent === "profile") {
    const submission = parseWithZod(formData, { schema: profileFormSchema });
    // a password is never sent back into the page
    const hidden = { hideFields: ["currentPassword"] };
    if (submission.status !== "success") return { intent, result: submission.reply(hidden) } as ActionData;
    try {
      // a new e-mail needs the current password, or the code mailed to the current address (the service asks)
      const result = await updateOwnProfile(user, submission.value, context.clientIp, language);
      return redirectWithToast("/profile", {
        message: result.emailChangePending ? t("shop.profile.savedPending", { email: submission.value.email }) : t("shop.profile.updated"),
      });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error, hidden) } as ActionData;
    }
  }

  if (intent === "confirm-email") {
    const submission = parseWithZod(formData, { schema: confirmEmailFormSchema });
    if (submission.status !== "success") return { intent, result: submission.reply() } as ActionData;
    if (!user.pendingEmail) return redirectWithToast("/profile", { type: "info", message: t("shop.profile.noChangeWaiting") });
    try {
      await confirmEmailChange(user.id, user.pendingEmail, submission.value.code);
      return redirectWithToast("/profile", { message: t("shop.profile.emailChanged") });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error) } as ActionData;
    }
  }

  if (intent === "marketing") {
    const wanted = formData.get("marketing") === "on";
    await setMarketingMail(user, wanted);
    return redirectWithToast("/profile", {
      message: wanted ? t("shop.profile.marketingOn") : t("shop.profile.marketingOff"),
    });
  }

  if (intent === "cancel-email") {
    await cancelEmailChange(user);
    return redirectWithToast("/profile", { type: "info", message: t("shop.profile.changeCancelled") });
  }

  if (intent === "password") {
    const submission = parseWithZod(formData, { schema: passwordFormSchema });
    const hidden = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
    if (submission.status !== "success") return { intent, result: submission.reply(hidden) } as ActionData;
    if (user.hasPassword && !submission.value.currentPassword) {
      return {
        intent,
        result: submission.reply({ ...hidden, fieldErrors: { currentPassword: [MESSAGES.passwordRequired] } }),
      } as ActionData;
    }
    try {
      const session = await getSessionUserId(request);
      await changeOwnPassword(
        user,
        { currentPassword: submission.value.currentPassword ?? "", newPassword: submission.value.newPassword },
        { ip: context.clientIp, keepSessionHash: session?.sessionHash },
      );
      return redirectWithToast("/profile", { message: t("shop.profile.passwordChanged") });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error, hidden) } as ActionData;
    }
  }

  throw new Response("Unknown action", { status: 400 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.profile.title", noindex: true });

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

export default function Profile() {
  // every save changes updatedAt: the forms then start again from the saved values
  const { user } = useLoaderData<typeof loader>();
  return <ProfileForms key={user.updatedAt} />;
}

function ProfileForms() {
  const { user, userType, marketingMail } = useLoaderData<typeof loader>();
  const { t } = useI18n();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);

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

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
