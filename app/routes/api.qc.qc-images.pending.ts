import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { QC_PERMISSIONS } from "~/lib/permissions";
import { requireApiAdmin } from "~/services/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { pendingQuerySchema } from "~/schemas/qc";
import { pendingQueue, qcImageJson } from "~/services/qc.server";

/** GET /api/qc/qc-images/pending?page&limit=20 → {images, pagination}: the review queue, oldest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: QC_PERMISSIONS.review });
    const query = parseQuery(request, pendingQuerySchema);
    const page = await pendingQueue(query);
    const { items, ...pagination } = pageEnvelope({ ...page, items: page.items.map(qcImageJson), limit: query.limit });
    return ok({ images: items, pagination });
  });

export const action = () => methodNotAllowed(["GET"]);
