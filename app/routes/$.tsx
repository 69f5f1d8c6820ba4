import type { MetaFunction } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";

/** Every unknown page: a 404 inside the site chrome. */
export function loader() {
  throw new Response("Not found", { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
