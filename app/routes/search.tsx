import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { ImportPanel, PastedList } from "~/components/storefront/import-panel";
import { ProductGrid } from "~/components/storefront/product-card";
import { ProductFilters, type CategoryOption, type ExternalFilter } from "~/components/storefront/product-filters";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { log } from "~/lib/log.server";
import { pageMeta } from "~/lib/meta";
import { storefrontAccess, toProductCard } from "~/controllers/product-page.server";
import { searchQuerySchema } from "~/schemas/catalogue";
import { CATALOGUE_MESSAGES, SEARCH_PAGE_SIZE, SEARCH_SORTS, type SearchSort } from "~/schemas/catalogue-rules";
import { categoriesForStorefront, searchCatalogue, type CategoryWithCount } from "~/services/catalogue.server";
import { isPastedLink } from "~/services/marketplace.server";
import { plainLine } from "~/lib/text";
import { readPastedText } from "~/controllers/pasted-links.server";

const EXTERNAL_VALUES: Record<string, boolean> = { local: false, external: true };

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
  const externalParam = params.get("external") ?? "";
  const external: ExternalFilter = externalParam === "local" || externalParam === "external" ? externalParam : "";
  const category = params.get("category") ?? "";
  const parsed = searchQuerySchema.safeParse({
    q: typed,
    page: params.get("page") ?? undefined,
    limit: SEARCH_PAGE_SIZE,
    categoryId: /^[1-9]\d{0,14}$/.test(category) ? category : undefined,
    sortBy: params.get("sort") ?? undefined,
    isExternal: external ? String(EXTERNAL_VALUES[external]) : undefined,
  });
  if (!parsed.success) {
    // an empty term shows the helpful page; a too long one says why
    const q = pasted;
    return { state: "help" as const, q, error: q ? (parsed.error.issues[0]?.message ?? null) : null };
  }
  const query = parsed.data;
  const access = await storefrontAccess(request);
  const [result, categories] = await Promise.all([
    searchCatalogue(
      {
        q: query.q,
        page: query.page,
        limit: SEARCH_PAGE_SIZE,
        categoryId: query.categoryId,
        sortBy: query.sortBy,
        isExternal: query.isExternal,
      },
      access,
    ).catch((error) => {
      // docs/product/storefront.md 8: 'Failed to search products.', shown with an empty result
      log.error(`[search] "${query.q}" failed: ${(error as Error).stack ?? error}`);
      return null;
    }),
    categoriesForStorefront(access),
  ]);
  const view = {
    state: "results" as const,
    q: query.q,
    sort: query.sortBy as SearchSort,
    external,
    category: query.categoryId ? String(query.categoryId) : "",
    categories: categoryOptions(categories),
    products: (result?.items ?? []).map(toProductCard),
    totalItems: result?.totalItems ?? 0,
    totalCapped: result?.totalCapped ?? false,
    page: result?.page ?? 1,
    totalPages: result?.totalPages ?? 1,
    error: result ? null : CATALOGUE_MESSAGES.searchFailed,
  };
  // a failed search is not kept for other visitors (the page cache skips no-store answers)
  return data(view, result ? undefined : { headers: { "Cache-Control": "no-store" } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

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
  return (
    <section aria-labelledby="search-title" className="listing">
      <header className="listing__header">
        <h1 id="search-title">{`Results for “${data.q}”`}</h1>
        <p className="muted">
          {data.totalCapped
            ? `More than ${data.totalItems.toLocaleString("en-US")} products found`
            : data.totalItems === 1
              ? "1 product found"
              : `${data.totalItems} products found`}
        </p>
      </header>
      <ProductFilters
        key={location.search}
        hidden={{ q: data.q }}
        sorts={SEARCH_SORTS}
        sort={data.sort}
        external={data.external}
        categories={data.categories}
        category={data.category}
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
