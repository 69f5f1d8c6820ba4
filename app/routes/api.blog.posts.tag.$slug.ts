import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { parseQuery } from "~/lib/query.server";
import { postListQuerySchema } from "~/schemas/blog";
import { tagJson } from "~/services/blog/common.server";
import { listTagPosts, postListJson } from "~/services/blog/posts.server";

/** GET /api/blog/posts/tag/:slug?page&limit: public posts with a tag. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, postListQuerySchema);
    const list = await listTagPosts(params.slug ?? "", { ...query, withContent: true });
    return ok({ data: { ...postListJson(list), tag: tagJson(list.tag) } });
  });

export const action = () => methodNotAllowed(["GET"]);
