import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { PostList } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { categoryPath, pageParam, toPostListData } from "~/lib/blog-pages.server";
import { pageMeta } from "~/lib/meta";
import { orNotFound, storefrontAccess } from "~/lib/product-page.server";
import { listCategoryPosts } from "~/services/blog.server";

/** /blog/category/:slug: the posts of a category and its subcategories (hidden categories are 404 for visitors). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await storefrontAccess(request);
  const list = await orNotFound(listCategoryPosts(params.slug ?? "", { page: pageParam(request), limit: null }, access));
  return {
    category: { name: list.category.name, description: list.category.description, path: categoryPath(list.category.slug) },
    list: toPostListData(list),
  };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data ? `${data.category.name} · Blog` : "Page not found", description: data?.category.description ?? undefined, noindex: !data });

export default function BlogCategory() {
  const { category, list } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  return (
    <section aria-labelledby="category-title" className="listing">
      <header className="listing__header">
        <p className="blog-breadcrumb">
          <a href="/blog">Blog</a> › Category
        </p>
        <h1 id="category-title">{category.name}</h1>
        {category.description ? <p className="muted">{category.description}</p> : null}
      </header>
      <PostList list={list} basePath={category.path} searchParams={searchParams} label={`Posts in ${category.name}`} empty="No posts in this category yet." />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
