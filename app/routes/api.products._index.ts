import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { getApiUser } from "~/services/request-user.server";
import { SHARED_WITH_VISITORS } from "~/lib/shared-answers.server";
import { getAccess } from "~/services/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { productListQuerySchema, REPEATED_QUERY_KEYS } from "~/schemas/catalogue";
import { productJson } from "~/services/catalogue/common.server";
import { listCatalogue } from "~/services/catalogue/products.server";

/**
 * GET /api/products?page&limit&isExternal&q&categoryId&platform&minPrice&maxPrice&hasQc&sortBy
 * → {items, currentPage, totalPages, totalItems, limit}, newest first unless sorted
 * (price_asc, price_desc, popular, qc). Storefront rules apply unless the caller manages
 * the catalogue.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, productListQuerySchema, REPEATED_QUERY_KEYS);
    const user = await getApiUser(request);
    const page = await listCatalogue({ ...query, sort: query.sortBy }, user ? await getAccess(user) : null);
    // the same for every visitor until the catalogue changes (lists by views change with every
    // view): shared caches may keep it for visitors (docs/decisions/035-kept-only-when-the-answer-says-so.md)
    return ok(pageEnvelope({ ...page, items: page.items.map(productJson) }), {
      headers: user || query.sortBy === "popular" ? undefined : SHARED_WITH_VISITORS,
    });
  });

export const action = () => methodNotAllowed(["GET"]);
