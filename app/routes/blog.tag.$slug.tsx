import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { BlogListingPage } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { pageParam, tagPath, toPostListData } from "~/controllers/blog-pages.server";
import { listCanonical, pageMeta } from "~/lib/meta";
import { orNotFound } from "~/controllers/product-page.server";
import { listTagPosts } from "~/services/blog.server";

/** /blog/tag/:slug: the posts with a tag. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const list = await orNotFound(listTagPosts(params.slug ?? "", { page: pageParam(request), limit: null }));
  return { tag: { name: list.tag.name, path: tagPath(list.tag.slug) }, list: toPostListData(list) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data
    ? [...pageMeta(matches, { title: `#${data.tag.name} · Blog` }), listCanonical(matches, data.tag.path, data.list.page)]
    : pageMeta(matches, { title: "Page not found", noindex: true });

export default function BlogTag() {
  const { tag, list } = useLoaderData<typeof loader>();
  return (
    <BlogListingPage
      kind="Tag"
      title={`#${tag.name}`}
      line={list.totalPosts === 1 ? "1 post" : `${list.totalPosts} posts`}
      basePath={tag.path}
      list={list}
      empty="No posts with this tag yet."
    />
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
