import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { ProductGrid } from "~/components/storefront/product-card";
import { ProductFilters, type ExternalFilter } from "~/components/storefront/product-filters";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { pageMeta } from "~/lib/meta";
import { idParam, orNotFound, storefrontAccess, toProductCard } from "~/controllers/product-page.server";
import { productListQuerySchema, searchSortSchema } from "~/schemas/catalogue";
import { SEARCH_PAGE_SIZE, type SearchSort } from "~/schemas/catalogue-rules";
import { categoriesForStorefront, getCategory, listCatalogue } from "~/services/catalogue.server";

/** A category page has no search term, so no "best match". */
const CATEGORY_SORTS = ["newest", "price_asc", "price_desc", "popular"] as const satisfies readonly SearchSort[];
type CategorySort = (typeof CATEGORY_SORTS)[number];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = idParam(params.id);
  const search = new URL(request.url).searchParams;
  const externalParam = search.get("external") ?? "";
  const external: ExternalFilter = externalParam === "local" || externalParam === "external" ? externalParam : "";
  const query = productListQuerySchema.parse({
    page: search.get("page") ?? undefined,
    isExternal: external ? String(external === "external") : undefined,
  });
  const parsedSort = searchSortSchema.parse(search.get("sort") ?? undefined);
  const sort: CategorySort = parsedSort === "relevance" ? "newest" : parsedSort;
  const access = await storefrontAccess(request);
  const [category, list, categories] = await Promise.all([
    orNotFound(getCategory(id)),
    listCatalogue({ page: query.page, limit: SEARCH_PAGE_SIZE, isExternal: query.isExternal, categoryId: id, sort }, access),
    categoriesForStorefront(access),
  ]);
  return {
    category: { id: category.id, name: category.name, description: category.description },
    subcategories: categories.filter((c) => c.parentId === id).map((c) => ({ id: c.id, name: c.name, productCount: c.productCount })),
    sort,
    external,
    products: list.items.map(toProductCard),
    totalItems: list.totalItems,
    page: list.page,
    totalPages: list.totalPages,
  };
}

export default function CategoryPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <section aria-labelledby="category-title" className="listing">
      <header className="listing__header">
        <h1 id="category-title">{data.category.name}</h1>
        {data.category.description ? <p>{data.category.description}</p> : null}
        <p className="muted">{data.totalItems === 1 ? "1 product" : `${data.totalItems} products`}</p>
      </header>
      {data.subcategories.length ? (
        <nav aria-label="Subcategories">
          <ul className="category-chips">
            {data.subcategories.map((sub) => (
              <li key={sub.id}>
                <Link to={`/category/${sub.id}`}>
                  {sub.name} <span className="muted">({sub.productCount})</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ProductFilters key={location.pathname + location.search} sorts={CATEGORY_SORTS} sort={data.sort} external={data.external} />
      {data.products.length ? (
        <>
          <ProductGrid products={data.products} label={`Products in ${data.category.name}`} />
          <Pagination currentPage={data.page} totalPages={data.totalPages} searchParams={new URLSearchParams(location.search)} />
        </>
      ) : (
        <div className="empty-state">
          <p>No products in this category yet.</p>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data
    ? pageMeta(matches, { title: data.category.name, ...(data.category.description ? { description: data.category.description } : {}) })
    : pageMeta(matches, { title: "Page not found", noindex: true });

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
