import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { getApiUser } from "~/lib/auth.server";
import { SHARED_ANSWER_HEADER } from "~/lib/content-version.server";
import { getAccess } from "~/lib/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { searchQuerySchema } from "~/schemas/catalogue";
import { productJson, searchCatalogue } from "~/services/catalogue.server";

/**
 * GET /api/products/search?q&page=1&limit=8&categoryId&sortBy&isExternal. An empty q answers
 * 400; any other text is searched as plain words (never as FTS syntax).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, searchQuerySchema);
    const user = await getApiUser(request);
    const page = await searchCatalogue(query, user ? await getAccess(user) : null);
    const items = page.items.map(productJson);
    // totalCapped: more matches than are counted (totalItems is then the cap, "500+")
    // the same for every visitor until the catalogue changes (lists by views change with every view)
    const shared = !user && query.sortBy !== "popular" ? { [SHARED_ANSWER_HEADER]: "visitors" } : undefined;
    return ok({ ...pageEnvelope({ ...page, items }), totalCapped: page.totalCapped, data: items, query: query.q }, { headers: shared });
  });

export const action = () => methodNotAllowed(["GET"]);
