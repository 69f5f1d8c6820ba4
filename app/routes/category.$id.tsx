import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { FIRST_ROW, ProductGrid } from "~/components/storefront/product-card";
import { activeFilterCount, ProductFilters } from "~/components/storefront/product-filters";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { pageMeta } from "~/lib/meta";
import { useT } from "~/i18n/i18n";
import { idParam, orNotFound, productCards, storefrontAccess } from "~/controllers/product-page.server";
import { readListingQuery } from "~/controllers/listing-page.server";
import { LIST_SORTS } from "~/schemas/catalogue-rules";
import { listCatalogue } from "~/services/catalogue/products.server";
import { categoriesForStorefront, getCategory } from "~/services/catalogue/categories.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = idParam(params.id);
  const { query, filters, view } = await readListingQuery(request);
  // a category page has no search term, so no "best match"
  const sort = query.sort === "relevance" ? "newest" : query.sort;
  const access = await storefrontAccess(request);
  const [category, list, categories] = await Promise.all([
    orNotFound(getCategory(id)),
    listCatalogue({ ...filters, page: query.page, limit: query.per, categoryId: id, sort }, access),
    categoriesForStorefront(access),
  ]);
  return {
    category: { id: category.id, name: category.name, description: category.description },
    subcategories: categories.filter((c) => c.parentId === id).map((c) => ({ id: c.id, name: c.name, productCount: c.productCount })),
    filters: { ...view, sort },
    products: await productCards(list.items),
    totalItems: list.totalItems,
    page: list.page,
    totalPages: list.totalPages,
  };
}

export default function CategoryPage() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const t = useT();
  return (
    <section aria-labelledby="category-title" className="listing">
      <header className="listing__header">
        <h1 id="category-title">{data.category.name}</h1>
        {data.category.description ? <p>{data.category.description}</p> : null}
        <p className="muted">{t("shop.category.products", { count: data.totalItems })}</p>
      </header>
      {data.subcategories.length ? (
        <nav aria-label={t("shop.category.subcategories")}>
          <ul className="category-chips">
            {data.subcategories.map((sub) => (
              <li key={sub.id}>
                <PageLink to={`/category/${sub.id}`}>
                  {sub.name} <span className="muted">({sub.productCount})</span>
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ProductFilters
        key={location.pathname + location.search}
        sorts={LIST_SORTS}
        view={data.filters}
        clearHref={`/category/${data.category.id}`}
      />
      {data.products.length ? (
        <>
          <ProductGrid products={data.products} label={t("shop.category.productsIn", { name: data.category.name })} eager={FIRST_ROW} />
          <Pagination currentPage={data.page} totalPages={data.totalPages} searchParams={new URLSearchParams(location.search)} />
        </>
      ) : (
        <div className="empty-state">
          <p>{activeFilterCount(data.filters) ? t("shop.category.noMatch") : t("shop.category.empty")}</p>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data
    ? pageMeta(matches, { title: data.category.name, ...(data.category.description ? { description: data.category.description } : {}) })
    : pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
