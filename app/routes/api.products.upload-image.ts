import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { PRODUCT_IMAGE_MAX_BYTES } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import { isUploadedFile, storeImage, withMultipart } from "~/services/uploads.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/products/upload-image, multipart field `image` → 201 {data: {imageUrl}}: checked
 * by content, re-encoded, stored under a server-made name (product.create or product.edit).
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { user } = await requireApiAdmin(request, { anyOf: ["product.create", "product.edit"] }, NO_TOKEN);
      const upload = await withMultipart(
        request,
        {
          maxFileBytes: PRODUCT_IMAGE_MAX_BYTES,
          maxFiles: 1,
          messages: { fileTooLarge: M.imageTooLarge, tooManyFiles: "Send one image per request" },
        },
        async (form) => {
          const file = form.get("image");
          if (!isUploadedFile(file) || file.size === 0) {
            throw new ApiError(400, M.imageRequired, "VALIDATION_ERROR", [{ field: "image", message: M.imageRequired }]);
          }
          return storeImage(file, "products", user.id, { notImage: M.imageNotImage, tooLarge: M.imageTooLarge }, PRODUCT_IMAGE_MAX_BYTES);
        },
      );
      return ok({ data: { imageUrl: upload.url, width: upload.width, height: upload.height }, imageUrl: upload.url }, { status: 201 });
    },
  });
