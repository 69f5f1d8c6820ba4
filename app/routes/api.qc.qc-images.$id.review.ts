import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { QC_PERMISSIONS } from "~/lib/permissions";
import { requireApiAdmin } from "~/services/permissions.server";
import { reviewSchema } from "~/schemas/qc";
import { qcImageJson, reviewQcImage } from "~/services/qc.server";

export const loader = () => methodNotAllowed(["PUT"]);

/**
 * PUT /api/qc/qc-images/:id/review {status: approved | rejected, reason?}: a pending photo
 * is approved (into the gallery) or rejected (its files deleted). 409 'QC image already
 * processed' when it is no longer pending; 404 'QC image not found'.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request, { anyOf: QC_PERMISSIONS.review });
      const id = parseId(params.id);
      const body = await readBody(request, reviewSchema);
      const image = await reviewQcImage(id, { status: body.status, reason: body.reason ?? null }, actor);
      return ok({ message: body.status === "approved" ? "QC image approved" : "QC image rejected", data: qcImageJson(image) });
    },
  });
