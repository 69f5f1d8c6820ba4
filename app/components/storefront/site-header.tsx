import { Form, Link, NavLink, useSubmit } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { CURRENCIES, CURRENCY_CODES, type CurrencyCode } from "~/lib/currency";
import { CategoryMenu, type CategoryNavItem } from "./category-nav";

/**
 * The site header: name, the category menu, the blog link, a search form that works without JavaScript (GET /search),
 * the currency picker and the account slot (filled by the accounts feature).
 */
export function SiteHeader({
  siteName,
  searchQuery,
  currency,
  returnTo,
  accountSlot,
  search = true,
  categories = [],
}: {
  siteName: string;
  searchQuery: string;
  currency: CurrencyCode;
  categories?: CategoryNavItem[];
  returnTo: string;
  accountSlot?: ReactNode;
  /** false on the home page: its own large search box is the one search there */
  search?: boolean;
}) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand" prefetch="intent">
          {siteName}
        </Link>
        <div className="site-header__links">
          <CategoryMenu categories={categories} />
          <nav aria-label="Site">
            <NavLink to="/blog">Blog</NavLink>
          </nav>
        </div>
        {search ? <SearchForm query={searchQuery} /> : null}
        <CurrencyPicker currency={currency} returnTo={returnTo} />
        <nav className="site-header__nav" aria-label="Account">
          {accountSlot}
        </nav>
      </div>
    </header>
  );
}

/** The header's search: GET /search, a name or a pasted marketplace link. */
function SearchForm({ query }: { query: string }) {
  return (
    <Form method="get" action="/search" role="search" className="site-search">
      <label htmlFor="site-search-q" className="visually-hidden">
        Search products
      </label>
      <input
        id="site-search-q"
        type="search"
        name="q"
        defaultValue={query}
        placeholder="Search or paste link"
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
        <span className="site-search__label">Search</span>
      </button>
    </Form>
  );
}

/**
 * POST /currency with the page to come back to. Without JavaScript the "Set" button
 * sends it; with JavaScript the button hides and a change sends it.
 */
function CurrencyPicker({ currency, returnTo }: { currency: CurrencyCode; returnTo: string }) {
  const submit = useSubmit();
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return (
    <Form
      method="post"
      action="/currency"
      className="currency-picker"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <select name="currency" aria-label="Currency" key={currency} defaultValue={currency}>
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code} title={CURRENCIES[code].name}>
            {code}
          </option>
        ))}
      </select>
      <button type="submit" className="button--secondary button--small" hidden={enhanced}>
        Set
      </button>
    </Form>
  );
}
