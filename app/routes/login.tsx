import { ErrorPage } from "~/components/ui/error-page";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { CaptchaField, NEW_CAPTCHA, NewCaptchaButton } from "~/components/storefront/captcha-field";
import { typedOnly } from "~/lib/forms.server";
import { GoogleButton } from "~/components/storefront/google-button";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import { safeRedirect, signInHref } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { startSession } from "~/services/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { loginSchema } from "~/schemas/auth";
import { login, sessionMaxAge } from "~/services/auth.server";
import { createCaptcha } from "~/services/captcha.server";
import { googleEnabled } from "~/services/google-auth.server";
import { addressNeedsCaptcha, limitCaptchaIssuing } from "~/services/rate-limit.server";
import { useT } from "~/i18n/i18n";
import { translatorOf } from "~/i18n/i18n.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/");
  if (await getPageUser(request)) throw redirect(redirectTo);
  // an address that has failed often gets the captcha straight away
  return {
    google: googleEnabled(),
    captcha: (await addressNeedsCaptcha(context.clientIp)) ? await createCaptcha() : null,
    email: url.searchParams.get("email") ?? "",
  };
}

type ActionData = {
  result: SubmissionResult<string[]>;
  captcha: { captchaId: string; svg: string } | null;
  requiresEmailVerification?: { email: string };
};

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  // another captcha image: the form as typed (no password), nothing tried
  if (formData.get(NEW_CAPTCHA)) {
    await limitCaptchaIssuing(context.clientIp);
    return { result: typedOnly(formData, ["password"]), captcha: await createCaptcha() } satisfies ActionData;
  }
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return { result: submission.reply({ hideFields: ["password"] }), captcha: null } satisfies ActionData;
  }
  try {
    const { user, access } = await login(submission.value, context.clientIp);
    const cookie = await startSession(request, { userId: user.id, maxAgeSeconds: sessionMaxAge(access), ip: context.clientIp });
    const redirectTo = safeRedirect(formData.get("redirectTo"), "/");
    const t = translatorOf(request);
    return redirectWithToast(
      redirectTo,
      { message: t("shop.login.welcomeBack", { name: user.username }) },
      { headers: { "Set-Cookie": cookie } },
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const extra = error.extra ?? {};
    const captcha = extra.requiresCaptcha ? await createCaptcha() : null;
    const fieldErrors: Record<string, string[]> = {};
    if (error.code === "CAPTCHA_REQUIRED") fieldErrors.captchaText = [error.message];
    return {
      result: submission.reply({
        formErrors: error.code === "CAPTCHA_REQUIRED" ? [] : [error.message],
        fieldErrors,
        hideFields: ["password"],
      }),
      captcha,
      requiresEmailVerification: extra.requiresEmailVerification ? { email: String(extra.email ?? "") } : undefined,
    } satisfies ActionData;
  }
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.login.title", noindex: true });

export default function Login() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const captcha = actionData ? actionData.captcha : data.captcha;
  const [form, fields] = useForm<z.input<typeof loginSchema>>({
    id: "login-form",
    lastResult: actionData?.result,
    defaultValue: { email: data.email },
  });
  const verification = actionData?.requiresEmailVerification;
  const t = useT();

  return (
    <section className="auth-page" aria-labelledby="login-title">
      <div className="card auth-card">
        <h1 id="login-title">{t("shop.login.title")}</h1>
        {verification ? (
          <div className="notice notice--warning" role="alert">
            <p>{t("shop.login.verifyFirst")}</p>
            <Form method="post" action="/verify-email">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="email" value={verification.email} />
              <SubmitButton className="button button--secondary" pendingText={t("shop.login.sending")}>
                {t("shop.login.sendCode")}
              </SubmitButton>
            </Form>
          </div>
        ) : null}
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormErrors id={form.errorId} errors={verification ? [] : form.errors} />
          <Field id={fields.email.id} label={t("shop.login.emailOrUsername")} errors={fields.email.errors}>
            <input {...getInputProps(fields.email, { type: "text" })} autoComplete="username" autoFocus />
          </Field>
          <Field id={fields.password.id} label={t("shop.login.password")} errors={fields.password.errors}>
            <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
          </Field>
          {captcha ? <CaptchaField key={captcha.captchaId} captcha={captcha} errors={fields.captchaText.errors} /> : null}
          <div className="form-actions">
            <SubmitButton className="button" pendingText={t("shop.login.loggingIn")}>
              {t("shop.login.submit")}
            </SubmitButton>
            {captcha ? <NewCaptchaButton /> : null}
            <PageLink to="/forgot-password">{t("shop.login.forgot")}</PageLink>
          </div>
        </Form>
        {data.google ? <GoogleButton redirectTo={redirectTo} /> : null}
        <p className="auth-card__footer">
          {`${t("shop.login.newHere")} `}
          <PageLink to={redirectTo ? signInHref(redirectTo, "register") : "/register"}>{t("shop.login.createAccount")}</PageLink>
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
