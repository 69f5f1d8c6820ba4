import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { publishSchema } from "~/schemas/blog";
import { postJson } from "~/services/blog/common.server";
import { setPostStatus } from "~/services/blog/posts.server";

export const loader = () => methodNotAllowed(["PUT"]);

/** PUT /api/blog/posts/:id/publish {status?, published_at?} (blog.publish): published (now, unless it has a time) or the given status. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.id);
      const body = await readBody(request, publishSchema);
      const post = await setPostStatus(id, body.status, body.published_at, actor);
      return ok({ message: `Post ${post.status}`, data: postJson(post) });
    },
  });
