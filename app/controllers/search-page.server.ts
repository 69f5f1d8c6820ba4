/**
 * The search page (/search): what a typed term finds, with the shopper's filters and
 * sorts, or what a pasted link leads to (docs/decisions/020 and 028). Apart from the route,
 * so that the page's browser code carries none of the loader's imports.
 */
import { data } from "@remix-run/node";
import type { CategoryOption } from "~/components/storefront/product-filters";
import { log } from "~/lib/log.server";
import { productCards, storefrontAccess } from "~/controllers/product-page.server";
import { readListingQuery } from "~/controllers/listing-page.server";
import { SEARCH_TERM_HEADER } from "~/lib/content-version.server";
import { SEARCH_TERM_MAX, type SearchSort } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import { SEARCH_COUNT_CAP, type CategoryWithCount } from "~/services/catalogue/common.server";
import { listCatalogue, searchCatalogue, shouldCountView } from "~/services/catalogue/products.server";
import { categoriesForStorefront } from "~/services/catalogue/categories.server";
import { countSearch, searchCountsWritten, normalizeSearch, popularSearches } from "~/services/search.server";
import { isPastedLink } from "~/marketplace/find.server";
import { plainLine } from "~/lib/text";
import { readPastedText } from "~/controllers/pasted-links.server";

/** Categories in display order, each parent followed by its subcategories. */
function categoryOptions(categories: CategoryWithCount[]): CategoryOption[] {
  const options: CategoryOption[] = [];
  for (const parent of categories.filter((c) => c.parentId === null)) {
    options.push({ id: parent.id, name: parent.name, depth: 0 });
    for (const child of categories.filter((c) => c.parentId === parent.id)) options.push({ id: child.id, name: child.name, depth: 1 });
  }
  return options;
}

/**
 * A pasted link or id opens its product, or shows where else it leads (docs/decisions/020-marketplace-links.md);
 * a text with several links lists each one's outcome, in the order pasted.
 */
async function pastedLink(request: Request, q: string, clientIp: string) {
  const pasted = await readPastedText(request, q, clientIp);
  return pasted.views
    ? { state: "links" as const, q, views: pasted.views, loggedIn: pasted.loggedIn }
    : { state: "link" as const, q, view: pasted.view, loggedIn: pasted.loggedIn };
}

/** The search page's data: a pasted link's outcome, a term too long, or the results with their filters. */
export async function searchPage(request: Request, clientIp: string) {
  const params = new URL(request.url).searchParams;
  // control characters (a pasted tab, a %00) are spaces, here and in the header's search box
  const typed = plainLine(params.get("q") ?? "");
  const pasted = typed.trim();
  if (pasted && pasted.length <= 2000 && (await isPastedLink(pasted))) return pastedLink(request, pasted, clientIp);
  if (pasted.length > SEARCH_TERM_MAX) return { state: "help" as const, q: pasted, error: CATALOGUE_MESSAGES.searchTermTooLong };
  const { query, filters, view: filterView } = await readListingQuery(request);
  const access = await storefrontAccess(request);
  const q = query.q;
  // without words: everything, newest first ("best match" has nothing to match)
  const sort: SearchSort = !q && query.sort === "relevance" ? "newest" : query.sort;
  const options = { ...filters, page: query.page, limit: query.per, categoryId: query.category };
  const [result, categories] = await Promise.all([
    (q
      ? searchCatalogue({ ...options, q, sortBy: sort }, access)
      : listCatalogue({ ...options, sort: sort === "relevance" ? "newest" : sort, countCap: SEARCH_COUNT_CAP }, access).then((list) => ({
          ...list,
          correctedTo: null,
          didYouMean: null,
          missingWords: [] as string[],
        }))
    ).catch((error) => {
      // docs/product/storefront.md 8: 'Failed to search products.', shown with an empty result
      log.error(`[search] "${q}" failed: ${(error as Error).stack ?? error}`);
      return null;
    }),
    categoriesForStorefront(access),
  ]);
  const found = result?.totalItems ?? 0;
  // a search that found products counts for the popular ones, as corrected when it was
  // ("nikee" counts as "nike": a misspelling is not shown to others)
  const searched = result?.correctedTo ?? q;
  const counted = Boolean(q && found > 0 && query.page === 1 && shouldCountView(request, null));
  if (counted) {
    countSearch(searched);
    await searchCountsWritten();
  }
  const view = {
    state: "results" as const,
    q,
    filters: { ...filterView, sort },
    category: query.category ? String(query.category) : "",
    categories: categoryOptions(categories),
    products: await productCards(result?.items ?? []),
    totalItems: found,
    totalCapped: result?.totalCapped ?? false,
    page: result?.page ?? 1,
    totalPages: result?.totalPages ?? 1,
    correctedTo: result?.correctedTo ?? null,
    didYouMean: result?.didYouMean ?? null,
    missingWords: result?.missingWords ?? [],
    popular: result && found === 0 ? (await popularSearches()).filter((term) => term !== normalizeSearch(q)) : [],
    error: result ? null : CATALOGUE_MESSAGES.searchFailed,
  };
  const headers: Record<string, string> = {};
  // a failed search is not kept for other visitors (the page cache skips no-store answers)
  if (!result) headers["Cache-Control"] = "no-store";
  // the server's front counts the search again at each visitor it gives this page to
  if (q && found > 0 && query.page === 1) headers[SEARCH_TERM_HEADER] = encodeURIComponent(searched);
  return data(view, { headers });
}
