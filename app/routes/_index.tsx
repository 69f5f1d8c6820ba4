import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ProductGrid } from "~/components/storefront/product-card";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { productCards, storefrontAccess } from "~/controllers/product-page.server";
import { categoryTree } from "~/controllers/root.server";
import type { RootLoaderData } from "~/root";
import { categoriesForStorefront, homeLists } from "~/services/catalogue.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await storefrontAccess(request);
  const [lists, categories] = await Promise.all([homeLists(access), categoriesForStorefront(access)]);
  return {
    recommended: await productCards(lists.recommended),
    hot: await productCards(lists.hot),
    categories: categoryTree(categories),
  };
}

export default function Home() {
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const { recommended, hot, categories } = useLoaderData<typeof loader>();
  const siteName = root?.siteInfo.site_name ?? "";
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{siteName}</h1>
        <p>{root?.siteInfo.site_description}</p>
        {/* the page's one search box (the header leaves its own out here); it keeps the
            header box's id, so a label or a script that finds one finds the other */}
        <Form method="get" action="/search" role="search" className="site-search" aria-describedby="hero-search-hint">
          <label htmlFor="site-search-q" className="visually-hidden">
            Search products
          </label>
          <input
            id="site-search-q"
            type="search"
            name="q"
            placeholder="Product name or link"
            autoComplete="off"
            required
            enterKeyHint="search"
          />
          <button type="submit">Search</button>
        </Form>
        <p id="hero-search-hint" className="hero__hint">
          Search by name, or paste a Weidian, Taobao, Tmall or 1688 link.
        </p>
      </section>

      {recommended.length === 0 ? (
        <section aria-labelledby="latest-title">
          <h2 id="latest-title">Latest products</h2>
          <div className="empty-state">
            <p>No products yet. Search above or paste a marketplace link to look one up.</p>
          </div>
        </section>
      ) : (
        <>
          <section aria-labelledby="recommended-title" className="home-section">
            <h2 id="recommended-title">Recommended</h2>
            <ProductGrid products={recommended} label="Recommended products" />
          </section>
          {hot.length ? (
            <section aria-labelledby="hot-title" className="home-section">
              <h2 id="hot-title">Hot products</h2>
              <ProductGrid products={hot} label="Hot products" />
            </section>
          ) : null}
        </>
      )}

      {categories.length ? (
        <section aria-labelledby="categories-title" className="home-section">
          <h2 id="categories-title">Categories</h2>
          <ul className="category-list">
            {categories.map((category) => (
              <li key={category.id}>
                <Link to={`/category/${category.id}`}>
                  {category.name} <span className="muted">({category.productCount})</span>
                </Link>
                {category.children.length ? (
                  <ul>
                    {category.children.map((child) => (
                      <li key={child.id}>
                        <Link to={`/category/${child.id}`}>
                          {child.name} <span className="muted">({child.productCount})</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
