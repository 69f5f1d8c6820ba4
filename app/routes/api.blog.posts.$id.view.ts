import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { optionalApiUser } from "~/services/permissions.server";
import { countPostView, getPost } from "~/services/blog/posts.server";

export const loader = () => methodNotAllowed(["PUT"]);

/** PUT /api/blog/posts/:id/view → {success, counted}: not for crawlers, once per reader and post in 30 minutes. */
export const action = ({ request, params, context }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const id = parseId(params.id);
      const caller = await optionalApiUser(request);
      const post = await getPost({ id }, caller?.access);
      const counted = await countPostView(post.id, { request, clientIp: context.clientIp, userId: caller?.user.id ?? null });
      return ok({ counted });
    },
  });
