import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { BlogListingPage } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { categoryPath, pageParam, toPostListData } from "~/controllers/blog-pages.server";
import { listCanonical, pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useT } from "~/i18n/i18n";
import { orNotFound, storefrontAccess } from "~/controllers/product-page.server";
import { listCategoryPosts } from "~/services/blog/posts.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

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
  data
    ? [
        ...pageMeta(matches, {
          title: translatorFor(rootLanguage(matches))("shop.blog.inBlog", { name: data.category.name }),
          description: data.category.description ?? undefined,
        }),
        listCanonical(matches, data.category.path, data.list.page),
      ]
    : pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });

export default function BlogCategory() {
  const { category, list } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <BlogListingPage
      kind="Category"
      title={category.name}
      line={category.description}
      basePath={category.path}
      list={list}
      empty={t("shop.blog.categoryEmpty")}
    />
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
