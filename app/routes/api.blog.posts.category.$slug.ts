import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { optionalApiUser } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { postListQuerySchema } from "~/schemas/blog";
import { categoryJson } from "~/services/blog/common.server";
import { listCategoryPosts, postListJson } from "~/services/blog/posts.server";

/** GET /api/blog/posts/category/:slug?page&limit: public posts of a category and its subcategories. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, postListQuerySchema);
    const caller = await optionalApiUser(request);
    const list = await listCategoryPosts(params.slug ?? "", { ...query, withContent: true }, caller?.access);
    return ok({ data: { ...postListJson(list), category: categoryJson(list.category) } });
  });

export const action = () => methodNotAllowed(["GET"]);
