import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { photoIndexProgress } from "~/services/photos/photo-search.server";
import { requireApiAdmin } from "~/services/permissions.server";

/**
 * GET /api/admin/photo-index → {data: {products, done, pictures, unreadable, indexed}}: how
 * far the photo fingerprints have come (products with pictures, those fingerprinted, the
 * pictures read and those that could not be), and the pictures this instance's index holds.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: ["product.create", "product.edit"] }, NO_TOKEN);
    return ok({ data: await photoIndexProgress() });
  });

export const action = () => methodNotAllowed(["GET"]);
