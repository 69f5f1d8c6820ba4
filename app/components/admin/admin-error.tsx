import { isRouteErrorResponse } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";

/**
 * An admin page's error boundary: 403/404 answers read as usual; anything unexpected
 * shows the page's own load-failure message (spec/admin.md 8, e.g. '加载设置失败'), with a
 * reload link when `reloadTo` is given (a plain link: it works without JavaScript).
 */
export function AdminErrorPage({ error, loadFailed, reloadTo }: { error: unknown; loadFailed: string; reloadTo?: string }) {
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorPage error={error} />;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">500</p>
      <h1 id="error-title">{loadFailed}</h1>
      <p>An unexpected error occurred. Please try again in a moment.</p>
      <p className="form-actions">
        {reloadTo ? (
          <a className="button" href={reloadTo}>
            Reload
          </a>
        ) : null}
        <a className={reloadTo ? "button button--secondary" : "button"} href="/admin">
          Back to the dashboard
        </a>
      </p>
    </section>
  );
}
