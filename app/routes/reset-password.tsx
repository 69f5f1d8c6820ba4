import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { resetPasswordFormSchema } from "~/schemas/account-forms";
import { PASSWORD_MIN } from "~/schemas/auth-rules";
import { resetPassword } from "~/services/auth.server";
import { useT } from "~/i18n/i18n";
import { translatorOf } from "~/i18n/i18n.server";

export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordFormSchema });
  if (submission.status !== "success") {
    return { result: submission.reply({ hideFields: ["newPassword", "confirmPassword"] }) as SubmissionResult<string[]> };
  }
  try {
    const user = await resetPassword(submission.value);
    return redirectWithToast(`/login?email=${encodeURIComponent(user.email)}`, {
      message: translatorOf(request)("shop.reset.done"),
    });
  } catch (error) {
    return {
      result: replyWithApiError(submission, error, { hideFields: ["newPassword", "confirmPassword"] }) as SubmissionResult<string[]>,
    };
  }
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.reset.title", noindex: true });

export default function ResetPassword() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useForm<z.input<typeof resetPasswordFormSchema>>({
    id: "reset-form",
    lastResult: actionData?.result,
    defaultValue: { email },
  });
  return (
    <section className="auth-page" aria-labelledby="reset-title">
      <div className="card auth-card">
        <h1 id="reset-title">{t("shop.reset.heading")}</h1>
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field id={fields.email.id} label={t("shop.auth.email")} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
          </Field>
          <Field id={fields.code.id} label={t("shop.reset.code")} errors={fields.code.errors} hint={t("shop.auth.codeHint")}>
            <input
              {...getInputProps(fields.code, { type: "text" })}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus={Boolean(email)}
            />
          </Field>
          <Field
            id={fields.newPassword.id}
            label={t("shop.reset.newPassword")}
            errors={fields.newPassword.errors}
            hint={t("shop.auth.passwordHint", { min: PASSWORD_MIN })}
          >
            <input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" />
          </Field>
          <Field id={fields.confirmPassword.id} label={t("shop.reset.confirmPassword")} errors={fields.confirmPassword.errors}>
            <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
          </Field>
          <SubmitButton className="button" pendingText={t("shop.auth.saving")}>
            {t("shop.reset.submit")}
          </SubmitButton>
        </Form>
        <p className="auth-card__footer">
          <PageLink to="/forgot-password">{t("shop.reset.newCode")}</PageLink> ·{" "}
          <PageLink to="/login">{t("shop.auth.backToLogIn")}</PageLink>
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
