import { Form, Link, NavLink, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { CURRENCY_CODES, type CurrencyCode } from "~/lib/currency";
import { useT } from "~/i18n/i18n";
import { LANGUAGE_NAMES, LANGUAGE_SHORT, languagesFor, type Language } from "~/i18n/languages";
import { CategoryMenu, type CategoryNavItem } from "./category-nav";

/**
 * The site header: name, the category menu, the blog link, a search form that works without JavaScript (GET /search),
 * the currency and language pickers and the account slot (filled by the accounts feature).
 */
export function SiteHeader({
  siteName,
  searchQuery,
  currency,
  language,
  returnTo,
  accountSlot,
  search = true,
  categories = [],
}: {
  siteName: string;
  searchQuery: string;
  currency: CurrencyCode;
  language: Language;
  categories?: CategoryNavItem[];
  returnTo: string;
  accountSlot?: ReactNode;
  /** false on the home page: its own large search box is the one search there */
  search?: boolean;
}) {
  const t = useT();
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand" prefetch="intent">
          {siteName}
        </Link>
        <div className="site-header__links">
          <CategoryMenu categories={categories} />
          <nav aria-label={t("shop.header.siteNav")}>
            <NavLink to="/blog">{t("shop.header.blog")}</NavLink>
          </nav>
        </div>
        {search ? <SearchForm query={searchQuery} /> : null}
        {/* on a phone the pickers fold behind their current values ("USD · EN"), a checkbox and
            its label: they open and close without JavaScript; wider screens show them as they are */}
        <input type="checkbox" id="locale-toggle" className="locale-toggle" aria-label={t("shop.header.displayOptions")} />
        <label htmlFor="locale-toggle" className="locale-toggle__label">
          {`${currency} · ${LANGUAGE_SHORT[language]}`}
        </label>
        <div className="locale-pickers">
          <CurrencyPicker currency={currency} returnTo={returnTo} />
          <LanguagePicker language={language} returnTo={returnTo} />
        </div>
        <nav className="site-header__nav" aria-label={t("shop.header.accountNav")}>
          {accountSlot}
        </nav>
      </div>
    </header>
  );
}

/** The header's search: GET /search, a name or a pasted marketplace link. */
function SearchForm({ query }: { query: string }) {
  const t = useT();
  return (
    <Form method="get" action="/search" role="search" className="site-search">
      <label htmlFor="site-search-q" className="visually-hidden">
        {t("shop.header.searchLabel")}
      </label>
      <input
        id="site-search-q"
        type="search"
        name="q"
        defaultValue={query}
        placeholder={t("shop.header.searchPlaceholder")}
        autoComplete="off"
        required
        enterKeyHint="search"
      />
      {/* on a phone a magnifier leaves the box room for its placeholder; the name stays "Search" */}
      <button type="submit">
        <svg
          className="site-search__icon"
          aria-hidden="true"
          width="20"
          height="20"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
        >
          <circle cx="10.5" cy="10.5" r="6.5" />
          <path d="m15.5 15.5 5 5" />
        </svg>
        <span className="site-search__label">{t("shop.header.search")}</span>
      </button>
    </Form>
  );
}

/**
 * POST /currency with the page to come back to. Without JavaScript the "Set" button
 * sends it; with JavaScript a change sends it (before the page hydrates: the early
 * script, app/lib/early-script.server.ts) and the button is not shown.
 */
function CurrencyPicker({ currency, returnTo }: { currency: CurrencyCode; returnTo: string }) {
  const t = useT();
  const submit = useSubmit();
  return (
    <Form
      method="post"
      action="/currency"
      className="currency-picker"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <select name="currency" aria-label={t("common.currency")} key={currency} defaultValue={currency} data-autosubmit="">
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
      <button type="submit" className="button--secondary button--small autosubmit-button">
        {t("common.set")}
      </button>
    </Form>
  );
}

/**
 * POST /lang with the page to come back to, as a plain form: the new language's page is
 * a new document (its texts load with it). Without JavaScript the "Set" button sends it;
 * with JavaScript a change sends it (before the page hydrates: the early script) and the
 * button is not shown.
 */
function LanguagePicker({ language, returnTo }: { language: Language; returnTo: string }) {
  const t = useT();
  return (
    <form
      method="post"
      action="/lang"
      className="currency-picker language-picker"
      onChange={(event) => event.currentTarget.requestSubmit()}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <select name="lang" aria-label={t("common.language")} key={language} defaultValue={language} data-autosubmit="">
        {languagesFor(returnTo.split("?")[0]).map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
      <button type="submit" className="button--secondary button--small autosubmit-button">
        {t("common.setLanguage")}
      </button>
    </form>
  );
}
