import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiUser } from "~/lib/permissions.server";
import { AVATAR_MAX_BYTES, MESSAGES } from "~/schemas/auth";
import { readMultipart, saveImage } from "~/services/uploads.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/upload/avatar, multipart field `file` → {url} (set it with PUT /api/users/me). */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      await requireApiUser(request);
      const form = await readMultipart(request, AVATAR_MAX_BYTES, MESSAGES.avatarTooLarge);
      const file = form.get("file");
      if (!(file instanceof Blob) || file.size === 0) throw new ApiError(400, MESSAGES.avatarNotImage, "VALIDATION_ERROR", [{ field: "file", message: MESSAGES.avatarNotImage }]);
      const { url } = await saveImage(file, "avatars", { notImage: MESSAGES.avatarNotImage, tooLarge: MESSAGES.avatarTooLarge }, AVATAR_MAX_BYTES);
      return ok({ url, data: { url } }, { status: 201 });
    },
  });
