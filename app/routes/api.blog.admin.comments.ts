import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { commentQueueQuerySchema } from "~/schemas/blog";
import { commentJson } from "~/services/blog/common.server";
import { commentQueue } from "~/services/blog/comments.server";

/** GET /api/blog/admin/comments?status=pending|approved|rejected|spam|all&page&limit: the moderation queue (blog.edit). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { permission: "blog.edit" });
    const query = parseQuery(request, commentQueueQuerySchema);
    const queue = await commentQueue(query);
    return ok({
      data: {
        comments: queue.comments.map((comment) => ({
          ...commentJson(comment),
          post_title: comment.postTitle,
          post_slug: comment.postSlug,
        })),
        page: queue.page,
        totalPages: queue.totalPages,
        total: queue.total,
        counts: queue.counts,
      },
    });
  });

export const action = () => methodNotAllowed(["GET"]);
