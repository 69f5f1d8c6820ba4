import { ErrorPage } from "~/components/ui/error-page";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export function loader({ request }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  return { q };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data?.q ? `Search: ${data.q}` : "Search", noindex: true });

export default function Search() {
  const { q } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">{q ? `Results for “${q}”` : "Search products"}</h1>
      <div className="empty-state">
        <p>{q ? "No products match your search." : "Enter a product name, or paste a marketplace link or id."}</p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
