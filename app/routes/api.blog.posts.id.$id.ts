import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { optionalApiUser } from "~/services/permissions.server";
import { postJson } from "~/services/blog/common.server";
import { getPost } from "~/services/blog/posts.server";

/** GET /api/blog/posts/id/:id → {data: post} (any status for holders of blog.edit, else public posts only). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const caller = await optionalApiUser(request);
    return ok({ data: postJson(await getPost({ id }, caller?.access)) });
  });

export const action = () => methodNotAllowed(["GET"]);
