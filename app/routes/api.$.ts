import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError } from "~/lib/api.server";

/** Any /api path no resource route serves: the JSON envelope, never an HTML page. */
function notFound({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  return apiError(404, `API endpoint not found: ${request.method} ${pathname}`, { code: "NOT_FOUND" });
}

export const loader = notFound;
export const action = notFound;
