import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { qcProduct, uploadStatus } from "~/services/qc.server";

/**
 * GET /api/qc/products/:id/qc-images/user/status → the caller's upload stats for the
 * product: {totalUploads, pendingUploads, approvedUploads, rejectedUploads, limit, remaining}
 * (limit and remaining are null for staff who publish directly).
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { user, access } = await requireApiUser(request);
    const product = await qcProduct(params.id);
    const stats = await uploadStatus(product.id, user, access);
    return ok({ data: stats, ...stats });
  });

export const action = () => methodNotAllowed(["GET"]);
