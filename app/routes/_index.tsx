import { ErrorPage } from "~/components/ui/error-page";
import type { MetaFunction } from "@remix-run/node";
import { Form, useRouteLoaderData, useRouteError } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import type { RootLoaderData } from "~/root";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export default function Home() {
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const siteName = root?.siteInfo.site_name ?? "";
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{siteName}</h1>
        <p>{root?.siteInfo.site_description}</p>
        <Form method="get" action="/search" role="search" className="site-search">
          <label htmlFor="hero-search-q" className="visually-hidden">
            Search products
          </label>
          <input
            id="hero-search-q"
            type="search"
            name="q"
            placeholder="Search by name, or paste a Weidian, Taobao, Tmall or 1688 link"
            required
            enterKeyHint="search"
          />
          <button type="submit">Search</button>
        </Form>
      </section>
      <section aria-labelledby="latest-title">
        <h2 id="latest-title">Latest products</h2>
        <div className="empty-state">
          <p>No products yet. Search above or paste a marketplace link to look one up.</p>
        </div>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
