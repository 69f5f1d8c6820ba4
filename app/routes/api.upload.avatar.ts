import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { receiveAvatarUpload } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/upload/avatar, multipart field `file` → {url}: the image is stored and issued
 * to the caller; it becomes the avatar with PUT /api/users/me {avatarUrl: url}.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { user } = await requireApiUser(request);
      const { url } = await receiveAvatarUpload(request, user, "file");
      return ok({ url, data: { url } }, { status: 201 });
    },
  });
