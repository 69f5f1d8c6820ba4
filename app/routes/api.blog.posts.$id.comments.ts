import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { optionalApiUser, requireApiUser } from "~/services/permissions.server";
import { BLOG_MESSAGES, commentInputSchema } from "~/schemas/blog";
import { commentJson } from "~/services/blog/common.server";
import { addComment, listComments } from "~/services/blog/comments.server";

/** GET /api/blog/posts/:id/comments → {data: [comment]}: approved ones, plus the caller's own pending ones. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const caller = await optionalApiUser(request);
    return ok({ data: (await listComments(id, caller)).map(commentJson) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** {content, parent_id?} (logged in) → 201 {data: comment} with status approved, or pending under moderation */
    POST: async () => {
      const actor = await requireApiUser(request);
      const id = parseId(params.id);
      const body = await readBody(request, commentInputSchema);
      const comment = await addComment(id, body, actor);
      const message = comment.status === "pending" ? BLOG_MESSAGES.commentAwaitingModeration : BLOG_MESSAGES.commentPosted;
      return ok({ message, data: commentJson(comment) }, { status: 201 });
    },
  });
