import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { storeBlogImage } from "~/controllers/blog-api.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/blog/images (multipart `image`, ≤ 10 MB; blog.create or blog.edit) → 201 {data: {url}}: a picture for a post. */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { user } = await requireApiAdmin(request, { anyOf: ["blog.create", "blog.edit"] });
      const url = await storeBlogImage(request, user.id);
      return ok({ data: { url }, url }, { status: 201 });
    },
  });
