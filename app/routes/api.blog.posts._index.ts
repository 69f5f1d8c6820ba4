import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { postInputSchema, postListQuerySchema } from "~/schemas/blog";
import { postJson } from "~/services/blog/common.server";
import { createPost, listPublicPosts, postListJson } from "~/services/blog/posts.server";

/** GET /api/blog/posts?page&limit → {data: {posts, page, totalPages, totalPosts, hasNext, hasPrev}}: public posts, pinned first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, postListQuerySchema);
    return ok({ data: postListJson(await listPublicPosts({ ...query, withContent: true })) });
  });

export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    /** {title, content, slug?, excerpt?, category_id?, status?, is_featured?, is_pinned?, reading_time?, featured_image?, meta_title?, meta_description?, published_at?, tags?} */
    POST: async () => {
      const actor = await requireApiAdmin(request);
      const body = await readBody(request, postInputSchema);
      return ok({ message: "Post created", data: postJson(await createPost(body, actor)) }, { status: 201 });
    },
  });
