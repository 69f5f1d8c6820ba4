import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { CaptchaField, NEW_CAPTCHA, NewCaptchaButton } from "~/components/storefront/captcha-field";
import { typedOnly } from "~/lib/forms.server";
import { GoogleButton } from "~/components/storefront/google-button";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import { replyWithApiError } from "~/lib/forms.server";
import { safeRedirect, signInHref } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { sendCodeFormSchema } from "~/schemas/account-forms";
import { registerSchema } from "~/schemas/auth";
import { PASSWORD_MIN } from "~/schemas/auth-rules";
import { startSession } from "~/services/session.server";
import { completeLogin, register, sendRegistrationCode, sessionMaxAge } from "~/services/auth.server";
import { createCaptcha } from "~/services/captcha.server";
import { googleEnabled } from "~/services/google-auth.server";
import { codeSendingNearLimit, limitCaptchaIssuing } from "~/services/rate-limit.server";
import { useT } from "~/i18n/i18n";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getPageUser(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo"), "/"));
  const needsCaptcha = await codeSendingNearLimit(context.clientIp);
  return {
    email: url.searchParams.get("email") ?? "",
    step: url.searchParams.get("step") === "2" ? 2 : 1,
    // where the shopper was going (a path on this site), carried through both steps
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""),
    captcha: needsCaptcha ? await createCaptcha() : null,
    google: googleEnabled(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const language = readLanguage(request);
  const t = translatorFor(language);

  if (intent === "send-code" && formData.get(NEW_CAPTCHA)) {
    // another captcha image: the form as typed, nothing sent
    await limitCaptchaIssuing(context.clientIp);
    return { intent, result: typedOnly(formData), captcha: await createCaptcha() };
  }
  if (intent === "send-code") {
    const submission = parseWithZod(formData, { schema: sendCodeFormSchema });
    if (submission.status !== "success") return { intent, result: submission.reply() as SubmissionResult<string[]> };
    const { email, ...captcha } = submission.value;
    const returnTo = safeRedirect(formData.get("redirectTo"), "");
    try {
      await sendRegistrationCode(email, context.clientIp, captcha, returnTo || undefined, language);
    } catch (error) {
      // a captcha is used up by any answer: a refused one comes back with a fresh image
      const needsCaptcha = error instanceof ApiError && error.extra?.requiresCaptcha;
      return {
        intent,
        result: replyWithApiError(submission, error) as SubmissionResult<string[]>,
        captcha: needsCaptcha ? await createCaptcha() : undefined,
      };
    }
    const params = new URLSearchParams({ step: "2", email: submission.value.email, ...(returnTo ? { redirectTo: returnTo } : {}) });
    return redirectWithToast(`/register?${params}`, {
      message: t("shop.register.codeSent", { email: submission.value.email }),
    });
  }

  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== "success") {
    return { intent: "register", result: submission.reply({ hideFields: ["password"] }) as SubmissionResult<string[]> };
  }
  try {
    // the code proved the address: the new account is logged in and goes where it was going
    const user = await register(submission.value);
    const { access } = await completeLogin(user, context.clientIp);
    const cookie = await startSession(request, { userId: user.id, maxAgeSeconds: sessionMaxAge(access), ip: context.clientIp });
    return redirectWithToast(
      safeRedirect(formData.get("redirectTo"), "/"),
      { title: t("shop.register.created"), message: t("shop.register.welcome", { name: user.username }) },
      { headers: { "Set-Cookie": cookie } },
    );
  } catch (error) {
    if (error instanceof ApiError) {
      return {
        intent: "register",
        result: replyWithApiError(submission, error, { hideFields: ["password"] }) as SubmissionResult<string[]>,
      };
    }
    throw error;
  }
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.register.title", noindex: true });

export default function Register() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const step = actionData?.intent === "register" ? 2 : actionData?.intent === "send-code" ? 1 : data.step;
  const captcha = actionData && "captcha" in actionData && actionData.captcha ? actionData.captcha : data.captcha;

  const [codeForm, codeFields] = useForm<z.input<typeof sendCodeFormSchema>>({
    id: "send-code-form",
    lastResult: actionData?.intent === "send-code" ? actionData.result : undefined,
    defaultValue: { email: data.email },
  });
  const [form, fields] = useForm<z.input<typeof registerSchema>>({
    id: "register-form",
    lastResult: actionData?.intent === "register" ? actionData.result : undefined,
    defaultValue: { email: data.email },
  });

  return (
    <section className="auth-page" aria-labelledby="register-title">
      <div className="card auth-card">
        <h1 id="register-title">{t("shop.register.title")}</h1>
        <ol className="steps" aria-label={t("shop.register.steps")}>
          <li aria-current={step === 1 ? "step" : undefined}>{t("shop.register.step1")}</li>
          <li aria-current={step === 2 ? "step" : undefined}>{t("shop.register.step2")}</li>
        </ol>

        {step === 1 ? (
          <Form method="post" {...getFormProps(codeForm)}>
            <input type="hidden" name="intent" value="send-code" />
            {data.redirectTo ? <input type="hidden" name="redirectTo" value={data.redirectTo} /> : null}
            <FormErrors id={codeForm.errorId} errors={codeForm.errors} />
            <Field id={codeFields.email.id} label={t("shop.register.email")} errors={codeFields.email.errors}>
              <input {...getInputProps(codeFields.email, { type: "email" })} autoComplete="email" autoFocus />
            </Field>
            {captcha ? <CaptchaField key={captcha.captchaId} captcha={captcha} errors={codeFields.captchaText.errors} /> : null}
            <div className="form-actions">
              <SubmitButton className="button" pendingText={t("shop.register.sending")}>
                {t("shop.register.sendCode")}
              </SubmitButton>
              {captcha ? <NewCaptchaButton /> : null}
              <PageLink
                to={`/register?${new URLSearchParams({ step: "2", ...(data.email ? { email: data.email } : {}), ...(data.redirectTo ? { redirectTo: data.redirectTo } : {}) })}`}
              >
                {t("shop.register.haveCode")}
              </PageLink>
            </div>
          </Form>
        ) : (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="register" />
            {data.redirectTo ? <input type="hidden" name="redirectTo" value={data.redirectTo} /> : null}
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field id={fields.email.id} label={t("shop.register.email")} errors={fields.email.errors}>
              <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
            </Field>
            <Field id={fields.code.id} label={t("shop.register.code")} errors={fields.code.errors} hint={t("shop.register.codeHint")}>
              <input
                {...getInputProps(fields.code, { type: "text" })}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                autoFocus
              />
            </Field>
            <Field
              id={fields.username.id}
              label={t("shop.register.username")}
              errors={fields.username.errors}
              hint={t("shop.register.usernameHint")}
            >
              <input {...getInputProps(fields.username, { type: "text" })} autoComplete="username" />
            </Field>
            <Field
              id={fields.password.id}
              label={t("shop.register.password")}
              errors={fields.password.errors}
              hint={t("shop.register.passwordHint", { min: PASSWORD_MIN })}
            >
              <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
            </Field>
            <div className="form-actions">
              <SubmitButton className="button" pendingText={t("shop.register.creating")}>
                {t("shop.register.submit")}
              </SubmitButton>
              <PageLink
                to={`/register?${new URLSearchParams({ ...(data.email ? { email: data.email } : {}), ...(data.redirectTo ? { redirectTo: data.redirectTo } : {}) })}`}
              >
                {t("shop.register.newCode")}
              </PageLink>
            </div>
          </Form>
        )}
        {data.google ? <GoogleButton /> : null}
        <p className="auth-card__footer">
          {t("shop.register.already")}{" "}
          <PageLink to={data.redirectTo ? signInHref(data.redirectTo) : "/login"}>{t("shop.register.logIn")}</PageLink>
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
