import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { sendCodeSchema } from "~/schemas/auth";
import { sendResetCode } from "~/services/auth.server";
import { useT } from "~/i18n/i18n";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: sendCodeSchema });
  if (submission.status !== "success") return { result: submission.reply() as SubmissionResult<string[]> };
  const language = readLanguage(request);
  try {
    await sendResetCode(submission.value.email, context.clientIp, language);
  } catch (error) {
    return { result: replyWithApiError(submission, error) as SubmissionResult<string[]> };
  }
  // the same answer whether or not the address has an account
  return redirectWithToast(`/reset-password?email=${encodeURIComponent(submission.value.email)}`, {
    message: translatorFor(language)("shop.forgot.sent"),
  });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.forgot.title", noindex: true });

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useForm<z.input<typeof sendCodeSchema>>({
    id: "forgot-form",
    lastResult: actionData?.result,
  });
  return (
    <section className="auth-page" aria-labelledby="forgot-title">
      <div className="card auth-card">
        <h1 id="forgot-title">{t("shop.forgot.heading")}</h1>
        <p className="muted">{t("shop.forgot.intro")}</p>
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field id={fields.email.id} label={t("shop.auth.email")} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" autoFocus />
          </Field>
          <div className="form-actions">
            <SubmitButton className="button" pendingText={t("shop.auth.sending")}>
              {t("shop.forgot.submit")}
            </SubmitButton>
            <PageLink to="/reset-password">{t("shop.auth.haveCode")}</PageLink>
          </div>
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
