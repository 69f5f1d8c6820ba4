import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { QC_PERMISSIONS } from "~/lib/permissions";
import { requireApiAdmin } from "~/services/permissions.server";
import { QC_MESSAGES as M } from "~/schemas/qc-rules";
import { receiveQcUpload } from "~/services/qc.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/qc/products/:id/qc-images/admin, multipart `qcImages` (up to 10; qc.upload or
 * qc.manage) → 201 {uploadedImages: [{id, imageUrl, ...}], errors}: published at once.
 */
export const action = ({ request, params, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, { anyOf: QC_PERMISSIONS.upload });
      const outcome = await receiveQcUpload(request, params.id, actor, { field: "qcImages", clientIp: String(context.clientIp ?? "") });
      return ok(
        {
          message: M.uploadedPublished(outcome.uploaded.length),
          uploadedImages: outcome.uploaded.map((image) => ({
            id: image.id,
            imageUrl: image.imageUrl,
            image_url: image.imageUrl,
            thumbnail_url: image.thumbUrl,
            status: image.status,
          })),
          errors: outcome.errors,
        },
        { status: 201 },
      );
    },
  });
