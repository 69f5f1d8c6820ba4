/**
 * The blog's lists: post cards, the list with its pager, and the blog's one date format.
 * Client-safe; the data is made on the server (app/controllers/blog-pages.server.ts).
 */
import { useSearchParams } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { dayText } from "~/lib/dates";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { useI18n, useT } from "~/i18n/i18n";

/** What a post card shows. */
export type PostCardData = {
  id: number;
  title: string;
  href: string;
  summary: string;
  image: string | null;
  category: { name: string; href: string } | null;
  publishedAt: string | null;
  readingTime: number;
  author: string | null;
  pinned: boolean;
};

export type PostListData = { posts: PostCardData[]; page: number; totalPages: number; totalPosts: number };

export function PostMetaLine({
  author,
  publishedAt,
  readingTime,
}: {
  author: string | null;
  publishedAt: string | null;
  readingTime: number;
}) {
  const { t, language } = useI18n();
  return (
    <p className="blog-meta">
      {author ? <span>{author}</span> : null}
      {publishedAt ? <time dateTime={publishedAt}>{dayText(publishedAt, language)}</time> : null}
      <span>{t("shop.blog.minRead", { count: readingTime })}</span>
    </p>
  );
}

export function PostCard({ post, featured }: { post: PostCardData; featured?: boolean }) {
  const t = useT();
  return (
    <article className={featured ? "blog-card blog-card--featured" : "blog-card"}>
      {post.image ? (
        <PageLink to={post.href} className="blog-card__image" tabIndex={-1} aria-hidden="true">
          <img src={post.image} alt="" width={640} height={360} loading="lazy" decoding="async" />
        </PageLink>
      ) : null}
      <div className="blog-card__body">
        <p className="blog-card__kicker">
          {post.pinned ? <span className="badge badge--pinned">{t("shop.blog.pinned")}</span> : null}
          {post.category ? <PageLink to={post.category.href}>{post.category.name}</PageLink> : null}
        </p>
        <h2 className="blog-card__title">
          <PageLink to={post.href}>{post.title}</PageLink>
        </h2>
        {post.summary ? <p className="blog-card__summary">{post.summary}</p> : null}
        <PostMetaLine author={post.author} publishedAt={post.publishedAt} readingTime={post.readingTime} />
      </div>
    </article>
  );
}

/** Cards and the pager (first, last and two either side of the current page). */
export function PostList({
  list,
  basePath,
  searchParams,
  label,
  empty,
}: {
  list: PostListData;
  basePath: string;
  searchParams: URLSearchParams;
  label: string;
  empty: string;
}) {
  const t = useT();
  if (!list.posts.length) return <EmptyState title={empty} />;
  return (
    <>
      <ul className="blog-list" aria-label={label}>
        {list.posts.map((post) => (
          <li key={post.id}>
            <PostCard post={post} />
          </li>
        ))}
      </ul>
      <Pagination
        currentPage={list.page}
        totalPages={list.totalPages}
        searchParams={searchParams}
        basePath={basePath}
        variant="ends"
        label={t("shop.blog.pagesOf", { label })}
      />
    </>
  );
}

/** A category's or a tag's page: the crumb, its name and line, and its posts. */
export function BlogListingPage({
  kind,
  title,
  line,
  basePath,
  list,
  empty,
}: {
  kind: "Category" | "Tag";
  title: string;
  line: string | null;
  basePath: string;
  list: PostListData;
  empty: string;
}) {
  const [searchParams] = useSearchParams();
  const t = useT();
  return (
    <section aria-labelledby="listing-title" className="listing">
      <header className="listing__header">
        <p className="blog-breadcrumb">
          <PageLink to="/blog">{t("shop.header.blog")}</PageLink> › {kind === "Category" ? t("shop.blog.category") : t("shop.blog.tag")}
        </p>
        <h1 id="listing-title">{title}</h1>
        {line ? <p className="muted">{line}</p> : null}
      </header>
      <PostList list={list} basePath={basePath} searchParams={searchParams} label={t("shop.blog.postsIn", { name: title })} empty={empty} />
    </section>
  );
}
