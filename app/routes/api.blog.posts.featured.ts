import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { sideListLimit } from "~/controllers/blog-api.server";
import { postJson } from "~/services/blog/common.server";
import { featuredPosts } from "~/services/blog/posts.server";

/** GET /api/blog/posts/featured?limit → {data: [post]}: featured public posts, pinned first, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => ok({ data: (await featuredPosts(sideListLimit(request), true)).map(postJson) }));

export const action = () => methodNotAllowed(["GET"]);
