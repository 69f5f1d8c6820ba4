import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useRouteError } from "@remix-run/react";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { sendCodeSchema } from "~/schemas/auth";
import { sendResetCode } from "~/services/auth.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: sendCodeSchema });
  if (submission.status !== "success") return { result: submission.reply() as SubmissionResult<string[]> };
  try {
    await sendResetCode(submission.value.email, context.clientIp);
  } catch (error) {
    return { result: replyWithApiError(submission, error) as SubmissionResult<string[]> };
  }
  // the same answer whether or not the address has an account
  return redirectWithToast(`/reset-password?email=${encodeURIComponent(submission.value.email)}`, {
    message: "If an account exists for this email, we have sent it a 6-digit reset code.",
  });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Forgot password", noindex: true });

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof sendCodeSchema>>({
    id: "forgot-form",
    lastResult: actionData?.result,
  });
  return (
    <section className="auth-page" aria-labelledby="forgot-title">
      <div className="card auth-card">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p className="muted">Enter your e-mail address and we will send you a code to choose a new password.</p>
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field id={fields.email.id} label="Email" errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" autoFocus />
          </Field>
          <div className="form-actions">
            <SubmitButton className="button" pendingText="Sending…">
              Send reset code
            </SubmitButton>
            <Link to="/reset-password">I already have a code</Link>
          </div>
        </Form>
        <p className="auth-card__footer">
          <Link to="/login">Back to log in</Link>
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
