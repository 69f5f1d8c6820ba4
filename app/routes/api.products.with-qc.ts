import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { sidebarRules } from "~/lib/permissions";
import { ApiError } from "~/lib/api.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { withQcQuerySchema } from "~/schemas/qc";
import { productJson } from "~/services/catalogue/common.server";
import { qcFolders, qcImageJson } from "~/services/qc.server";

/**
 * GET /api/products/with-qc?page&limit=20&searchTerm&filterType=all|withQC|withoutQC|local|external
 * → {data: [product with qc_image_count, pending_qc_count and up to 20 qc_images], pagination}
 * (the QC file manager's folders; staff with QC access).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { access } = await requireApiAdmin(request);
    if (!sidebarRules.qc(access)) throw new ApiError(403, "权限不足，需要管理员权限", "FORBIDDEN");
    const query = parseQuery(request, withQcQuerySchema);
    const page = await qcFolders(query);
    const { items, ...pagination } = pageEnvelope({
      ...page,
      items: page.items.map((folder) => ({
        ...productJson(folder.product),
        qc_image_count: folder.approved,
        pending_qc_count: folder.pending,
        qc_images: folder.previews.map(qcImageJson),
      })),
    });
    return ok({ data: items, pagination, ...pagination });
  });

export const action = () => methodNotAllowed(["GET"]);
