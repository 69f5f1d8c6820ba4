import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { optionalApiUser, requireApiAdmin } from "~/services/permissions.server";
import { postUpdateSchema } from "~/schemas/blog";
import { postJson } from "~/services/blog/common.server";
import { deletePostByAdmin, getPost, updatePostByAdmin } from "~/services/blog/posts.server";

/** GET /api/blog/posts/:slug → {data: post} (any status for holders of blog.edit, else public posts only). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const caller = await optionalApiUser(request);
    return ok({ data: postJson(await getPost({ slug: params.post ?? "" }, caller?.access)) });
  });

/** PUT and DELETE /api/blog/posts/:id (the id, not the slug). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** the fields given change, the status included (blog.edit, as docs/runtime.md names it) */
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.post);
      const body = await readBody(request, postUpdateSchema);
      return ok({ message: "Post updated", data: postJson(await updatePostByAdmin(id, body, actor)) });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request);
      await deletePostByAdmin(parseId(params.post), actor);
      return ok({ message: "Post deleted" });
    },
  });
