import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The site header: name, a search form that works without JavaScript (GET /search),
 * and the account slot (filled by the accounts feature).
 */
export function SiteHeader({
  siteName,
  searchQuery,
  accountSlot,
}: {
  siteName: string;
  searchQuery: string;
  accountSlot?: ReactNode;
}) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand" prefetch="intent">
          {siteName}
        </Link>
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
        <nav className="site-header__nav" aria-label="Account">
          {accountSlot}
        </nav>
      </div>
    </header>
  );
}
