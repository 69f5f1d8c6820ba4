import { isRouteErrorResponse, useLocation } from "@remix-run/react";
import { useI18n } from "~/i18n/i18n";
import { signInHref } from "~/lib/http";

/** The body of an error page (404, 403, 500...); the site chrome stays around it. */
export function ErrorPage({ error }: { error: unknown }) {
  const location = useLocation();
  const { t, message } = useI18n();
  if (isRouteErrorResponse(error) && error.status === 401) {
    // the login-required screen: a button to /login that comes back here afterwards
    const back = location.pathname + location.search;
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">401</p>
        <h1 id="error-title">{t("common.error.loginRequired")}</h1>
        <p>{typeof error.data === "string" && error.data ? message(error.data) : t("common.error.pleaseLogIn")}</p>
        <p>
          <a className="button" href={signInHref(back)}>
            {t("common.error.logIn")}
          </a>
        </p>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">404</p>
        <h1 id="error-title">{t("common.error.notFound")}</h1>
        <p>{t("common.error.notFoundText")}</p>
        <p>
          <a className="button" href="/">
            {t("common.error.backHome")}
          </a>
        </p>
      </section>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title =
    status === 403 ? t("common.error.accessDenied") : status >= 500 ? t("common.error.somethingWrong") : t("common.error.requestFailed");
  const detail = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? message(error.data)
      : error.statusText
    : t("common.error.unexpected");
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">{status}</p>
      <h1 id="error-title">{title}</h1>
      <p>{detail}</p>
      <p>
        <a className="button" href="/">
          {t("common.error.backHome")}
        </a>
      </p>
    </section>
  );
}
