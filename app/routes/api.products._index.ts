import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { getApiUser } from "~/services/request-user.server";
import { SHARED_ANSWER_HEADER } from "~/lib/content-version.server";
import { getAccess } from "~/services/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { productListQuerySchema } from "~/schemas/catalogue";
import { listCatalogue, productJson } from "~/services/catalogue.server";

/**
 * GET /api/products?page&limit&isExternal&q&categoryId → {items, currentPage, totalPages,
 * totalItems, limit}. Storefront rules apply unless the caller manages the catalogue.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, productListQuerySchema);
    const user = await getApiUser(request);
    const page = await listCatalogue(query, user ? await getAccess(user) : null);
    // newest first: the same for every visitor until the catalogue changes
    return ok(pageEnvelope({ ...page, items: page.items.map(productJson) }), {
      headers: user ? undefined : { [SHARED_ANSWER_HEADER]: "visitors" },
    });
  });

export const action = () => methodNotAllowed(["GET"]);
