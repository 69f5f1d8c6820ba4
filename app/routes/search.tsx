import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { ImportPanel, PastedList } from "~/components/storefront/import-panel";
import { FIRST_ROW, ProductGrid } from "~/components/storefront/product-card";
import { activeFilterCount, ProductFilters } from "~/components/storefront/product-filters";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { listCanonical, pageMeta, rootLanguage } from "~/lib/meta";
import { numberText, translatorFor, useI18n } from "~/i18n/i18n";
import { searchPage } from "~/controllers/search-page.server";
import { LIST_SORTS, SEARCH_SORTS } from "~/schemas/catalogue-rules";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => searchPage(request, String(context.clientIp ?? ""));

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

/** A search's address with another term (the filters are left behind: they may be why nothing was found). */
const searchHref = (term: string) => `/search?q=${encodeURIComponent(term)}`;

export default function Search() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const { t, message, language } = useI18n();
  if (data.state === "link") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">{t("shop.search.findByLink")}</h1>
        <ImportPanel view={data.view} loggedIn={data.loggedIn} />
      </section>
    );
  }
  if (data.state === "links") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">{t("shop.search.linksFound", { count: data.views.length })}</h1>
        <PastedList views={data.views} loggedIn={data.loggedIn} />
      </section>
    );
  }
  if (data.state === "help") {
    return (
      <section aria-labelledby="search-title">
        <h1 id="search-title">{t("shop.search.heading")}</h1>
        {data.error ? (
          <p className="notice notice--warning" role="alert">
            {message(data.error)}
          </p>
        ) : null}
        <div className="empty-state">
          <p>{t("shop.search.help")}</p>
        </div>
      </section>
    );
  }
  const total = numberText(language, data.totalItems);
  const count = data.totalCapped ? t("shop.search.moreThanFound", { total }) : t("shop.search.found", { count: data.totalItems, total });
  const clearParams = new URLSearchParams(data.q ? { q: data.q } : {});
  return (
    <section aria-labelledby="search-title" className="listing">
      <header className="listing__header">
        <h1 id="search-title">{data.q ? t("shop.search.resultsFor", { query: data.q }) : t("shop.search.allProducts")}</h1>
        <p className="muted">{count}</p>
        {data.correctedTo ? (
          <p className="search-corrected">
            {`${t("shop.search.including")} `}
            <PageLink to={searchHref(data.correctedTo)}>{`“${data.correctedTo}”`}</PageLink>
          </p>
        ) : null}
        {data.missingWords.length ? (
          <p className="search-corrected">
            {t("shop.search.missingWords", { words: data.missingWords.map((word) => `“${word}”`).join(", ") })}
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
          {message(data.error)}
        </p>
      ) : null}
      {data.products.length ? (
        <>
          <ProductGrid products={data.products} label={t("shop.search.results")} eager={FIRST_ROW} />
          <Pagination currentPage={data.page} totalPages={data.totalPages} searchParams={new URLSearchParams(location.search)} />
        </>
      ) : (
        <div className="empty-state">
          <p>{t("shop.search.noMatch")}</p>
          {data.didYouMean ? (
            <p className="search-did-you-mean">
              {`${t("shop.search.didYouMean")} `}
              <PageLink to={searchHref(data.didYouMean)}>{`“${data.didYouMean}”`}</PageLink>
              {t("shop.search.didYouMeanEnd")}
            </p>
          ) : null}
          {activeFilterCount(data.filters, data.category) ? (
            <p>
              <PageLink to={`/search${clearParams.size ? `?${clearParams}` : ""}`}>{t("shop.search.withoutFilters")}</PageLink>
            </p>
          ) : null}
          {data.popular.length ? (
            <nav className="search-hints" aria-label={t("shop.search.popular")}>
              <h2 className="h4">{t("shop.search.popular")}</h2>
              <ul>
                {data.popular.map((term) => (
                  <li key={term}>
                    <PageLink to={searchHref(term)}>{term}</PageLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <p>
            <PageLink to="/search">{t("shop.search.browseAll")}</PageLink>
          </p>
        </div>
      )}
    </section>
  );
}

/**
 * A search engine may index a search's first page when it is a page worth landing on: the
 * products for a word as typed (found, not corrected), or the whole catalogue, without
 * filters or another sort; its canonical address is the search alone. Every other state
 * (no result, a later page, filters, a corrected or pasted term) says noindex
 * (docs/decisions/045-search-landing-pages.md).
 */
export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const title = data?.q ? translatorFor(rootLanguage(matches))("shop.search.titleQuery", { query: data.q }) : undefined;
  const landing =
    data?.state === "results" &&
    data.totalItems > 0 &&
    data.page === 1 &&
    !data.correctedTo &&
    !data.error &&
    activeFilterCount(data.filters, data.category) === 0 &&
    data.filters.sort === (data.q ? "relevance" : "newest");
  if (!landing)
    return title ? pageMeta(matches, { title, noindex: true }) : pageMeta(matches, { titleKey: "shop.search.title", noindex: true });
  const tags = title ? pageMeta(matches, { title }) : pageMeta(matches, { titleKey: "shop.search.title" });
  return [...tags, listCanonical(matches, data.q ? searchHref(data.q) : "/search", 1)];
};

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
