import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { ImportPanel, PastedList } from "~/components/storefront/import-panel";
import { ProductGrid } from "~/components/storefront/product-card";
import { activeFilterCount, ProductFilters, type CategoryOption } from "~/components/storefront/product-filters";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { log } from "~/lib/log.server";
import { pageMeta } from "~/lib/meta";
import { productCards, storefrontAccess } from "~/controllers/product-page.server";
import { readListingQuery } from "~/controllers/listing-page.server";
import { SEARCH_TERM_HEADER } from "~/lib/content-version.server";
import { CATALOGUE_MESSAGES, LIST_SORTS, SEARCH_SORTS, SEARCH_TERM_MAX, type SearchSort } from "~/schemas/catalogue-rules";
import {
  categoriesForStorefront,
  listCatalogue,
  SEARCH_COUNT_CAP,
  searchCatalogue,
  shouldCountView,
  type CategoryWithCount,
} from "~/services/catalogue.server";
import { countSearch, normalizeSearch, popularSearches } from "~/services/search.server";
import { isPastedLink } from "~/services/marketplace.server";
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

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  // control characters (a pasted tab, a %00) are spaces, here and in the header's search box
  const typed = plainLine(params.get("q") ?? "");
  const pasted = typed.trim();
  if (pasted && pasted.length <= 2000 && (await isPastedLink(pasted))) return pastedLink(request, pasted, String(context.clientIp ?? ""));
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
  if (counted) countSearch(searched);
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

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** A search's address with another term (the filters are left behind: they may be why nothing was found). */
const searchHref = (term: string) => `/search?q=${encodeURIComponent(term)}`;

export default function Search() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  if (data.state === "link") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">Find a product by its link</h1>
        <ImportPanel view={data.view} loggedIn={data.loggedIn} />
      </section>
    );
  }
  if (data.state === "links") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">{`${data.views.length} links found`}</h1>
        <PastedList views={data.views} loggedIn={data.loggedIn} />
      </section>
    );
  }
  if (data.state === "help") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">Search products</h1>
        {data.error ? (
          <p className="notice notice--warning" role="alert">
            {data.error}
          </p>
        ) : null}
        <div className="empty-state">
          <p>Enter a product name, or paste a marketplace link or id.</p>
        </div>
      </section>
    );
  }
  const count = data.totalCapped
    ? `More than ${data.totalItems.toLocaleString("en-US")} products found`
    : data.totalItems === 1
      ? "1 product found"
      : `${data.totalItems.toLocaleString("en-US")} products found`;
  const clearParams = new URLSearchParams(data.q ? { q: data.q } : {});
  return (
    <section aria-labelledby="search-title" className="listing">
      <header className="listing__header">
        <h1 id="search-title">{data.q ? `Results for “${data.q}”` : "All products"}</h1>
        <p className="muted">{count}</p>
        {data.correctedTo ? (
          <p className="search-corrected">
            Including results for <Link to={searchHref(data.correctedTo)}>{`“${data.correctedTo}”`}</Link>
          </p>
        ) : null}
      </header>
      <ProductFilters
        key={location.search}
        hidden={data.q ? { q: data.q } : {}}
        sorts={data.q ? SEARCH_SORTS : LIST_SORTS}
        view={data.filters}
        categories={data.categories}
        category={data.category}
        clearHref={`/search${clearParams.size ? `?${clearParams}` : ""}`}
      />
      {data.error ? (
        <p className="notice notice--warning" role="alert">
          {data.error}
        </p>
      ) : null}
      {data.products.length ? (
        <>
          <ProductGrid products={data.products} label="Search results" />
          <Pagination currentPage={data.page} totalPages={data.totalPages} searchParams={new URLSearchParams(location.search)} />
        </>
      ) : (
        <div className="empty-state">
          <p>No products match your search.</p>
          {data.didYouMean ? (
            <p className="search-did-you-mean">
              Did you mean <Link to={searchHref(data.didYouMean)}>{`“${data.didYouMean}”`}</Link>?
            </p>
          ) : null}
          {activeFilterCount(data.filters, data.category) ? (
            <p>
              <Link to={`/search${clearParams.size ? `?${clearParams}` : ""}`}>Search again without the filters</Link>
            </p>
          ) : null}
          {data.popular.length ? (
            <nav className="search-hints" aria-label="Popular searches">
              <h2 className="h4">Popular searches</h2>
              <ul>
                {data.popular.map((term) => (
                  <li key={term}>
                    <Link to={searchHref(term)}>{term}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <p>
            <Link to="/search">Browse all products</Link>
          </p>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data?.q ? `Search: ${data.q}` : "Search", noindex: true });

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
