import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { moderateSchema } from "~/schemas/blog";
import { commentJson } from "~/services/blog/common.server";
import { moderateComment } from "~/services/blog/comments.server";

export const loader = () => methodNotAllowed(["PUT"]);

/** PUT /api/blog/comments/:id/moderate {status: approved | rejected | spam | pending} (blog.edit). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.id);
      const { status } = await readBody(request, moderateSchema);
      return ok({ message: `Comment ${status}`, data: commentJson(await moderateComment(id, status, actor)) });
    },
  });
