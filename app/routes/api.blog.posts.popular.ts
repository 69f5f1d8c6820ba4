import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { sideListLimit } from "~/controllers/blog-api.server";
import { postJson } from "~/services/blog/common.server";
import { popularPosts } from "~/services/blog/posts.server";

/** GET /api/blog/posts/popular?limit → {data: [post]}: the most viewed public posts. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => ok({ data: (await popularPosts(sideListLimit(request), true)).map(postJson) }));

export const action = () => methodNotAllowed(["GET"]);
