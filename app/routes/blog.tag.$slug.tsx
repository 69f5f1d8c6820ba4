import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { PostList } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { pageParam, tagPath, toPostListData } from "~/lib/blog-pages.server";
import { pageMeta } from "~/lib/meta";
import { orNotFound } from "~/lib/product-page.server";
import { listTagPosts } from "~/services/blog.server";

/** /blog/tag/:slug: the posts with a tag. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const list = await orNotFound(listTagPosts(params.slug ?? "", { page: pageParam(request), limit: null }));
  return { tag: { name: list.tag.name, path: tagPath(list.tag.slug) }, list: toPostListData(list) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data ? `#${data.tag.name} · Blog` : "Page not found", noindex: !data });

export default function BlogTag() {
  const { tag, list } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  return (
    <section aria-labelledby="tag-title" className="listing">
      <header className="listing__header">
        <p className="blog-breadcrumb">
          <a href="/blog">Blog</a> › Tag
        </p>
        <h1 id="tag-title">#{tag.name}</h1>
        <p className="muted">{list.totalPosts === 1 ? "1 post" : `${list.totalPosts} posts`}</p>
      </header>
      <PostList list={list} basePath={tag.path} searchParams={searchParams} label={`Posts tagged ${tag.name}`} empty="No posts with this tag yet." />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
