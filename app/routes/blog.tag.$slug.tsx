import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { BlogListingPage } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { pageParam, tagPath, toPostListData } from "~/controllers/blog-pages.server";
import { listCanonical, pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useT } from "~/i18n/i18n";
import { orNotFound } from "~/controllers/product-page.server";
import { listTagPosts } from "~/services/blog/posts.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

/** /blog/tag/:slug: the posts with a tag. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const list = await orNotFound(listTagPosts(params.slug ?? "", { page: pageParam(request), limit: null }));
  return { tag: { name: list.tag.name, path: tagPath(list.tag.slug) }, list: toPostListData(list) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data
    ? [
        ...pageMeta(matches, { title: translatorFor(rootLanguage(matches))("shop.blog.inBlog", { name: `#${data.tag.name}` }) }),
        listCanonical(matches, data.tag.path, data.list.page),
      ]
    : pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });

export default function BlogTag() {
  const { tag, list } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <BlogListingPage
      kind="Tag"
      title={`#${tag.name}`}
      line={t("shop.blog.postCount", { count: list.totalPosts })}
      basePath={tag.path}
      list={list}
      empty={t("shop.blog.tagEmpty")}
    />
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
