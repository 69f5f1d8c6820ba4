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
import { sendCodeSchema, verifyEmailSchema } from "~/schemas/auth";
import { resendVerification, verifyEmail } from "~/services/auth.server";
import { useT } from "~/i18n/i18n";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";

export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const language = readLanguage(request);
  const t = translatorFor(language);
  if (formData.get("intent") === "resend") {
    const submission = parseWithZod(formData, { schema: sendCodeSchema });
    if (submission.status !== "success") return { intent: "resend", result: submission.reply() as SubmissionResult<string[]> };
    try {
      await resendVerification(submission.value.email, context.clientIp, language);
    } catch (error) {
      return { intent: "resend", result: replyWithApiError(submission, error) as SubmissionResult<string[]> };
    }
    return redirectWithToast(`/verify-email?email=${encodeURIComponent(submission.value.email)}`, {
      message: t("shop.verify.resent"),
    });
  }
  const submission = parseWithZod(formData, { schema: verifyEmailSchema });
  if (submission.status !== "success") return { intent: "verify", result: submission.reply() as SubmissionResult<string[]> };
  try {
    const user = await verifyEmail(submission.value.email, submission.value.code);
    return redirectWithToast(`/login?email=${encodeURIComponent(user.email)}`, { message: t("shop.verify.done") });
  } catch (error) {
    return { intent: "verify", result: replyWithApiError(submission, error) as SubmissionResult<string[]> };
  }
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.verify.title", noindex: true });

export default function VerifyEmail() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useForm<z.input<typeof verifyEmailSchema>>({
    id: "verify-form",
    lastResult: actionData?.intent === "verify" ? actionData.result : undefined,
    defaultValue: { email },
  });
  const [resendForm, resendFields] = useForm<z.input<typeof sendCodeSchema>>({
    id: "resend-form",
    lastResult: actionData?.intent === "resend" ? actionData.result : undefined,
    defaultValue: { email },
  });
  return (
    <section className="auth-page" aria-labelledby="verify-title">
      <div className="card auth-card">
        <h1 id="verify-title">{t("shop.verify.title")}</h1>
        <p className="muted">{t("shop.verify.intro")}</p>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="verify" />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field id={fields.email.id} label={t("shop.auth.email")} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
          </Field>
          <Field id={fields.code.id} label={t("shop.auth.verificationCode")} errors={fields.code.errors}>
            <input
              {...getInputProps(fields.code, { type: "text" })}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
            />
          </Field>
          <SubmitButton className="button" pendingText={t("shop.verify.verifying")}>
            {t("shop.verify.submit")}
          </SubmitButton>
        </Form>
        <Form method="post" {...getFormProps(resendForm)} className="secondary-form">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name={resendFields.email.name} value={email} />
          <FormErrors id={resendForm.errorId} errors={[...(resendForm.errors ?? []), ...(resendFields.email.errors ?? [])]} />
          {email ? (
            <SubmitButton className="button button--secondary" pendingText={t("shop.auth.sending")}>
              {t("shop.auth.newCode")}
            </SubmitButton>
          ) : null}
        </Form>
        <p className="auth-card__footer">
          <PageLink to="/login">{t("shop.auth.backToLogIn")}</PageLink>
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
