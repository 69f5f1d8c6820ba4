import { Form, Link, NavLink, useSubmit } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { CURRENCIES, CURRENCY_CODES, type CurrencyCode } from "~/lib/currency";

/**
 * The site header: name, the blog link, a search form that works without JavaScript (GET /search),
 * the currency picker and the account slot (filled by the accounts feature).
 */
export function SiteHeader({
  siteName,
  searchQuery,
  currency,
  returnTo,
  accountSlot,
}: {
  siteName: string;
  searchQuery: string;
  currency: CurrencyCode;
  returnTo: string;
  accountSlot?: ReactNode;
}) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand" prefetch="intent">
          {siteName}
        </Link>
        <nav className="site-header__links" aria-label="Site">
          <NavLink to="/blog">Blog</NavLink>
        </nav>
        <Form method="get" action="/search" role="search" className="site-search">
          <label htmlFor="site-search-q" className="visually-hidden">
            Search products
          </label>
          <input
            id="site-search-q"
            type="search"
            name="q"
            defaultValue={searchQuery}
            placeholder="Search products or paste a link"
            autoComplete="off"
            required
            enterKeyHint="search"
          />
          <button type="submit">Search</button>
        </Form>
        <CurrencyPicker currency={currency} returnTo={returnTo} />
        <nav className="site-header__nav" aria-label="Account">
          {accountSlot}
        </nav>
      </div>
    </header>
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
