import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { BLOG_PERMISSIONS } from "~/controllers/blog-api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { apiAdminPostListQuerySchema } from "~/schemas/blog";
import { adminPostList, postListJson } from "~/services/blog/posts.server";

/** GET /api/blog/admin/posts?search&category&status&page&limit: every status (any blog permission). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: BLOG_PERMISSIONS });
    const query = parseQuery(request, apiAdminPostListQuerySchema);
    // whole posts, content included: a list row is a post like any other (the spec's toggle may send one back)
    const list = await adminPostList(query, true);
    return ok({ data: { ...postListJson(list), statusCounts: list.statusCounts } });
  });

export const action = () => methodNotAllowed(["GET"]);
