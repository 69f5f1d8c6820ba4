import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { listTagsWithCounts } from "~/services/blog/categories.server";

/** GET /api/blog/tags → {data: [{id, name, slug, post_count}]} (post_count: public posts), most used first. */
export const loader = () =>
  apiRoute(async () =>
    ok({ data: (await listTagsWithCounts()).map((tag) => ({ id: tag.id, name: tag.name, slug: tag.slug, post_count: tag.postCount })) }),
  );

export const action = () => methodNotAllowed(["GET"]);
