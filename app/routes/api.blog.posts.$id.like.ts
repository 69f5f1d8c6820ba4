import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { likeSchema } from "~/schemas/blog";
import { likePost } from "~/services/blog/comments.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/blog/posts/:id/like {type?: "like"} → {data: {liked, like_count}}: a second call takes the like back. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiUser(request);
      const id = parseId(params.id);
      const { type } = await readBody(request, likeSchema);
      return ok({ data: await likePost(id, actor, type) });
    },
  });
