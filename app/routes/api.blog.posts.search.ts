import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { parseQuery } from "~/lib/query.server";
import { postSearchQuerySchema } from "~/schemas/blog";
import { postListJson, searchPosts } from "~/services/blog/posts.server";

/** GET /api/blog/posts/search?q&page&limit: full-text search of public posts (400 without q). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, postSearchQuerySchema);
    return ok({ data: postListJson(await searchPosts(query.q, { page: query.page, limit: query.limit, withContent: true })) });
  });

export const action = () => methodNotAllowed(["GET"]);
