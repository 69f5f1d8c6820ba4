import { Outlet, useLoaderData, useRouteError, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { BlogSidebar } from "~/components/storefront/blog-sidebar";
import { ErrorPage } from "~/components/ui/error-page";
import { blogSidebar } from "~/controllers/blog-pages.server";
import { plainLine } from "~/lib/text";

/** The blog's frame: the page (list or post) and the side column. */
export async function loader() {
  return blogSidebar();
}

/** The side column changes with posts and views, not with the page of a list or a like. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formMethod === undefined && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

export default function BlogLayout() {
  const sidebar = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  return (
    <div className="blog-layout">
      <div className="blog-layout__main">
        <Outlet />
      </div>
      {/* the term as the search reads it: control characters (a %00) are spaces */}
      <BlogSidebar data={sidebar} query={plainLine(searchParams.get("q") ?? "")} />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
