import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { log } from "~/lib/log.server";
import { getApiUser } from "~/services/request-user.server";
import { SHARED_WITH_VISITORS } from "~/lib/shared-answers.server";
import { getAccess } from "~/services/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { CATALOGUE_MESSAGES, REPEATED_QUERY_KEYS, searchQuerySchema } from "~/schemas/catalogue";
import { productJson } from "~/services/catalogue/common.server";
import { searchCatalogue } from "~/services/catalogue/products.server";
import { popularSearches } from "~/services/search.server";

/**
 * GET /api/products/search?q&page=1&limit=8&categoryId&sortBy&isExternal&platform&minPrice&maxPrice&hasQc.
 * An empty q answers 400; any other text is searched as plain words (never as FTS
 * syntax), forgiving (aliases, typos: correctedTo; on no results didYouMean and
 * popularSearches).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const query = parseQuery(request, searchQuerySchema, REPEATED_QUERY_KEYS);
    const user = await getApiUser(request);
    const access = user ? await getAccess(user) : null;
    const page = await searchCatalogue(query, access).catch((error) => {
      if (error instanceof ApiError) throw error;
      // docs/product/storefront.md 8: 'Failed to search products.', with an empty result
      log.error(`[search] "${query.q}" failed: ${(error as Error).stack ?? error}`);
      throw new ApiError(500, CATALOGUE_MESSAGES.searchFailed, "SEARCH_FAILED", undefined, {
        ...pageEnvelope({ items: [], page: 1, limit: query.limit, totalItems: 0, totalPages: 1 }),
        totalCapped: false,
        data: [],
        query: query.q,
      });
    });
    const items = page.items.map(productJson);
    const popular = page.totalItems === 0 ? await popularSearches() : [];
    // totalCapped: more matches than are counted (totalItems is then the cap, "500+")
    // the same for every visitor until the catalogue changes (lists by views change with every
    // view): shared caches may keep it for visitors (docs/decisions/035-kept-only-when-the-answer-says-so.md)
    const shared = !user && query.sortBy !== "popular" ? SHARED_WITH_VISITORS : undefined;
    return ok(
      {
        ...pageEnvelope({ ...page, items }),
        totalCapped: page.totalCapped,
        data: items,
        query: query.q,
        correctedTo: page.correctedTo,
        didYouMean: page.didYouMean,
        missingWords: page.missingWords,
        popularSearches: popular,
      },
      { headers: shared },
    );
  });

export const action = () => methodNotAllowed(["GET"]);
