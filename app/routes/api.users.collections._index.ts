import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiUser } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { collectionsQuerySchema } from "~/schemas/catalogue";
import { productJson } from "~/services/catalogue/common.server";
import { userCollection } from "~/services/catalogue/collections.server";

/**
 * GET /api/users/collections?sortBy=date|price|name&sortOrder=desc|asc&page=1&limit=10 →
 * {data: [product + productId + collected_at], pagination: {totalItems, totalPages, currentPage, itemsPerPage}}.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { user } = await requireApiUser(request, NO_TOKEN);
    const query = parseQuery(request, collectionsQuerySchema);
    const page = await userCollection(user, query);
    return ok({
      data: page.items.map((item) => ({ ...productJson(item), productId: item.id, collected_at: item.collectedAt })),
      pagination: { totalItems: page.totalItems, totalPages: page.totalPages, currentPage: page.page, itemsPerPage: page.limit },
    });
  });

export const action = () => methodNotAllowed(["GET"]);
