import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { optionalApiUser } from "~/services/permissions.server";
import { postNavigation } from "~/services/blog/posts.server";

/** GET /api/blog/posts/:id/navigation → {data: {previous, next}}: the public posts before (older) and after (newer), each {id, slug, title} or null. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const caller = await optionalApiUser(request);
    return ok({ data: await postNavigation(id, caller?.access) });
  });

export const action = () => methodNotAllowed(["GET"]);
