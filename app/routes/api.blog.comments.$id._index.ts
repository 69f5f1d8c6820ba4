import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { BLOG_MESSAGES, commentUpdateSchema } from "~/schemas/blog";
import { commentJson } from "~/services/blog/common.server";
import { editComment, removeComment } from "~/services/blog/comments.server";

export const loader = () => methodNotAllowed(["PUT", "DELETE"]);

/** PUT {content} and DELETE /api/blog/comments/:id: by its author or a holder of blog.edit. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiUser(request);
      const id = parseId(params.id);
      const body = await readBody(request, commentUpdateSchema);
      return ok({ message: "Comment updated", data: commentJson(await editComment(id, body, actor)) });
    },
    DELETE: async () => {
      const actor = await requireApiUser(request);
      await removeComment(parseId(params.id), actor);
      return ok({ message: BLOG_MESSAGES.commentDeleted });
    },
  });
