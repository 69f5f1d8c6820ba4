import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ProductGrid } from "~/components/storefront/product-card";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { useT } from "~/i18n/i18n";
import { productCards, storefrontAccess } from "~/controllers/product-page.server";
import { categoryTree } from "~/controllers/root.server";
import type { RootLoaderData } from "~/root";
import { homeLists } from "~/services/catalogue/products.server";
import { categoriesForStorefront } from "~/services/catalogue/categories.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

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
  const t = useT();
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
            {t("shop.header.searchLabel")}
          </label>
          <input
            id="site-search-q"
            type="search"
            name="q"
            placeholder={t("shop.home.searchPlaceholder")}
            autoComplete="off"
            required
            enterKeyHint="search"
          />
          <button type="submit">{t("shop.header.search")}</button>
        </Form>
        <p id="hero-search-hint" className="hero__hint">
          {t("shop.home.searchHint")} <Link to="/search/photo">{t("shop.home.searchByPhoto")}</Link>
        </p>
      </section>

      {recommended.length === 0 ? (
        <section aria-labelledby="latest-title">
          <h2 id="latest-title">{t("shop.home.latest")}</h2>
          <div className="empty-state">
            <p>{t("shop.home.empty")}</p>
          </div>
        </section>
      ) : (
        <>
          <section aria-labelledby="recommended-title" className="home-section">
            <h2 id="recommended-title">{t("shop.home.recommended")}</h2>
            <ProductGrid products={recommended} label={t("shop.home.recommendedProducts")} />
          </section>
          {hot.length ? (
            <section aria-labelledby="hot-title" className="home-section">
              <h2 id="hot-title">{t("shop.home.hot")}</h2>
              <ProductGrid products={hot} label={t("shop.home.hot")} />
            </section>
          ) : null}
        </>
      )}

      {categories.length ? (
        <section aria-labelledby="categories-title" className="home-section">
          <h2 id="categories-title">{t("shop.home.categories")}</h2>
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
