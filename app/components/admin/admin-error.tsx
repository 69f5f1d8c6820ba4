import { isRouteErrorResponse } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { useI18n, useT } from "~/i18n/i18n";

/**
 * An admin page's error boundary: 403/404 answers read as usual; anything unexpected
 * shows the page's own load-failure message (docs/product/admin.md 8, e.g. '加载设置失败'), with a
 * reload button when `reloadTo` is given (docs/product/admin.md 2: "a fallback error screen with a
 * reload button"): a GET form for the same address, so it works without JavaScript.
 */
export function AdminErrorPage({ error, loadFailed, reloadTo }: { error: unknown; loadFailed: string; reloadTo?: string }) {
  const { t, message } = useI18n();
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorPage error={error} />;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">500</p>
      <h1 id="error-title">{message(loadFailed)}</h1>
      <p>{t("admin.error.unexpected")}</p>
      <div className="form-actions">
        {reloadTo ? <ReloadButton to={reloadTo} /> : null}
        <a className={reloadTo ? "button button--secondary" : "button"} href="/admin">
          {t("admin.error.backToDashboard")}
        </a>
      </div>
    </section>
  );
}

/** A button that loads `to` again: a plain GET form carrying the address's query as hidden fields. */
function ReloadButton({ to }: { to: string }) {
  const t = useT();
  const url = new URL(to, "http://x");
  return (
    <form method="get" action={url.pathname} className="admin-inline-form">
      {[...url.searchParams].map(([name, value], n) => (
        <input key={`${name}-${n}`} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button">
        {t("admin.error.reload")}
      </button>
    </form>
  );
}
