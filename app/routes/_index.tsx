import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
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
import { weeklyTrends, type Trend } from "~/services/catalogue/trends.server";
import type { ProductCardData } from "~/components/storefront/product-card";
import { Price } from "~/components/storefront/price";

/** Products each of the week's trends shows on the home page (the API gives 8). */
const HOME_TREND_SIZE = 4;

/** A product in a trend of the week: what its line shows, and what it counts. */
type TrendItem = Pick<ProductCardData, "id" | "name" | "href" | "image" | "priceCny"> & { count: number };

/**
 * A trend of the week as a short ranked list: a thumbnail, the name, the price and what it
 * counts on one line each (full cards doubled the page's height on a phone and its
 * hydration, docs/performance.md "Lighthouse after issue 39").
 */
function TrendList({ id, title, items, note }: { id: string; title: string; items: TrendItem[]; note: (count: number) => string }) {
  if (!items.length) return null;
  return (
    <div className="home-trend">
      <h3 id={id}>{title}</h3>
      <ol className="trend-list" aria-labelledby={id}>
        {items.map((item) => (
          <li key={item.id}>
            {item.image ? (
              <img className="trend-list__image" src={item.image} alt="" width={56} height={56} loading="lazy" decoding="async" />
            ) : (
              <span className="trend-list__image" aria-hidden="true" />
            )}
            <PageLink to={item.href} className="trend-list__name">
              {item.name}
            </PageLink>
            <span className="trend-list__meta">
              <Price cny={item.priceCny} compact /> · {note(item.count)}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await storefrontAccess(request);
  const [lists, categories, trends] = await Promise.all([homeLists(access), categoriesForStorefront(access), weeklyTrends(access)]);
  const ranked = async (trend: Trend) => {
    const cards = await productCards(trend.slice(0, HOME_TREND_SIZE).map((item) => item.product));
    return cards.map(({ id, name, href, image, priceCny }, at): TrendItem => ({ id, name, href, image, priceCny, count: trend[at].count }));
  };
  return {
    recommended: await productCards(lists.recommended),
    hot: await productCards(lists.hot),
    categories: categoryTree(categories),
    trends: { qc: await ranked(trends.qcPhotographed), collected: await ranked(trends.collected), newCount: trends.newCount },
  };
}

export default function Home() {
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const { recommended, hot, categories, trends } = useLoaderData<typeof loader>();
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
          {t("shop.home.searchHint")} <PageLink to="/search/photo">{t("shop.home.searchByPhoto")}</PageLink>
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
          {trends.qc.length || trends.collected.length || trends.newCount ? (
            <section aria-labelledby="trends-title" className="home-section home-trends">
              <h2 id="trends-title">{t("shop.home.trendsTitle")}</h2>
              <TrendList
                id="trend-qc"
                title={t("shop.home.trendQc")}
                items={trends.qc}
                note={(count) => t("shop.home.trendQcCount", { count })}
              />
              <TrendList
                id="trend-collected"
                title={t("shop.home.trendCollected")}
                items={trends.collected}
                note={(count) => t("shop.home.trendCollectedCount", { count })}
              />
              {trends.newCount ? (
                <p>
                  <PageLink to="/search?sort=newest">{t("shop.home.newThisWeek", { count: trends.newCount })}</PageLink>
                </p>
              ) : null}
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
                <PageLink to={`/category/${category.id}`}>
                  {category.name} <span className="muted">({category.productCount})</span>
                </PageLink>
                {category.children.length ? (
                  <ul>
                    {category.children.map((child) => (
                      <li key={child.id}>
                        <PageLink to={`/category/${child.id}`}>
                          {child.name} <span className="muted">({child.productCount})</span>
                        </PageLink>
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
