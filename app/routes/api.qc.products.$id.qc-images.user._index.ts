import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { QC_MESSAGES as M } from "~/schemas/qc-rules";
import { receiveQcUpload, uploadStatus } from "~/services/qc.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/qc/products/:id/qc-images/user, multipart `photos` (up to 10) → 201
 * {uploaded: [{id, image_url, status}], stats, errors}: a shopper's photos wait for review
 * (10 per product each); staff with qc.upload publish at once. Files refused one by one
 * are listed in `errors`; when none can be stored the answer is 400.
 */
export const action = ({ request, params, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiUser(request);
      const outcome = await receiveQcUpload(request, params.id, actor, { field: "photos", clientIp: String(context.clientIp ?? "") });
      const stats = await uploadStatus(outcome.product.id, actor.user, actor.access);
      return ok(
        {
          message: outcome.published ? M.uploadedPublished(outcome.uploaded.length) : M.uploadedPending(outcome.uploaded.length),
          uploaded: outcome.uploaded.map((image) => ({
            id: image.id,
            image_url: image.imageUrl,
            thumbnail_url: image.thumbUrl,
            status: image.status,
          })),
          stats,
          errors: outcome.errors,
        },
        { status: 201 },
      );
    },
  });
