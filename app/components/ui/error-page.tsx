import { isRouteErrorResponse, useLocation } from "@remix-run/react";

/** The body of an error page (404, 403, 500...); the site chrome stays around it. */
export function ErrorPage({ error }: { error: unknown }) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 401) {
    // the login-required screen: a button to /login that comes back here afterwards
    const back = location.pathname + location.search;
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">401</p>
        <h1 id="error-title">Login required</h1>
        <p>{typeof error.data === "string" && error.data ? error.data : "Please log in to continue."}</p>
        <p>
          <a className="button" href={`/login?redirectTo=${encodeURIComponent(back)}`}>
            Log in
          </a>
        </p>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">404</p>
        <h1 id="error-title">Page not found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <p>
          <a className="button" href="/">
            Back to the home page
          </a>
        </p>
      </section>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 403 ? "Access denied" : status >= 500 ? "Something went wrong" : "Request failed";
  const detail = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : error.statusText
    : "An unexpected error occurred. Please try again in a moment.";
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">{status}</p>
      <h1 id="error-title">{title}</h1>
      <p>{detail}</p>
      <p>
        <a className="button" href="/">
          Back to the home page
        </a>
      </p>
    </section>
  );
}
