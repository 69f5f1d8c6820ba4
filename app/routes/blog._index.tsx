import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { PostCard, PostList } from "~/components/storefront/blog-cards";
import { ErrorPage } from "~/components/ui/error-page";
import { pageParam, toPostCard, toPostListData } from "~/controllers/blog-pages.server";
import { listCanonical, pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useT } from "~/i18n/i18n";
import { blogSearchTerm, featuredPosts, listPublicPosts, searchPosts } from "~/services/blog/posts.server";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

/** /blog: featured posts and the newest (pinned first), or search results with ?q=. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // the term as the search reads it (control characters are spaces), here and in the search box
  const q = blogSearchTerm(url.searchParams.get("q") ?? "");
  const page = pageParam(request);
  if (q) return { q, featured: [], list: toPostListData(await searchPosts(q, { page, limit: null })) };
  const [list, featured] = await Promise.all([listPublicPosts({ page, limit: null }), page === 1 ? featuredPosts(3) : Promise.resolve([])]);
  return { q, featured: featured.map(toPostCard), list: toPostListData(list) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  const tags = pageMeta(matches, {
    title: data?.q
      ? t("shop.blog.searchTitle", { query: data.q })
      : data && data.list.page > 1
        ? t("shop.blog.pageTitle", { page: data.list.page })
        : t("shop.header.blog"),
    description: t("shop.blog.description"),
    noindex: Boolean(data?.q),
  });
  // search results are not indexed; the list's pages are, each at its own address
  return data && !data.q ? [...tags, listCanonical(matches, "/blog", data.list.page)] : tags;
};

export default function BlogIndex() {
  const { q, featured, list } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const t = useT();
  return (
    <section aria-labelledby="blog-title" className="listing">
      <header className="listing__header">
        <h1 id="blog-title">{q ? t("shop.blog.postsAbout", { query: q }) : t("shop.header.blog")}</h1>
        <p className="muted">
          {q ? (
            <>
              {t("shop.blog.postsFound", { count: list.totalPosts })} · <PageLink to="/blog">{t("shop.blog.allPosts")}</PageLink>
            </>
          ) : (
            t("shop.blog.intro")
          )}
        </p>
      </header>
      {featured.length ? (
        <section aria-labelledby="featured-title" className="blog-featured">
          <h2 id="featured-title" className="visually-hidden">
            {t("shop.blog.featured")}
          </h2>
          <ul className="blog-list blog-list--featured">
            {featured.map((post) => (
              <li key={post.id}>
                <PostCard post={post} featured />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!q && featured.length ? <h2 className="blog-section-title">{t("shop.blog.latest")}</h2> : null}
      <PostList
        list={list}
        basePath="/blog"
        searchParams={searchParams}
        label={q ? t("shop.search.results") : t("shop.blog.posts")}
        empty={q ? t("shop.blog.noMatch") : t("shop.blog.empty")}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
