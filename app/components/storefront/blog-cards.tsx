/**
 * The blog's lists: post cards, the list with its pager, and the blog's one date format.
 * Client-safe; the data is made on the server (app/controllers/blog-pages.server.ts).
 */
import { Link, useSearchParams } from "@remix-run/react";
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

const DATE_OPTIONS: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * "24 Nov 2026" (English), "2026年11月24日" (Chinese): the same on the server and in any
 * browser (UTC), so hydration agrees.
 */
export function blogDate(iso: string | null, language: string = "en"): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const locale = language === "en" ? "en-GB" : language;
  let format = DATE_FORMATS.get(locale);
  if (!format) DATE_FORMATS.set(locale, (format = new Intl.DateTimeFormat(locale, DATE_OPTIONS)));
  return format.format(date);
}

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
      {publishedAt ? <time dateTime={publishedAt}>{blogDate(publishedAt, language)}</time> : null}
      <span>{t("shop.blog.minRead", { count: readingTime })}</span>
    </p>
  );
}

export function PostCard({ post, featured }: { post: PostCardData; featured?: boolean }) {
  const t = useT();
  return (
    <article className={featured ? "blog-card blog-card--featured" : "blog-card"}>
      {post.image ? (
        <Link to={post.href} className="blog-card__image" tabIndex={-1} aria-hidden="true">
          <img src={post.image} alt="" width={640} height={360} loading="lazy" decoding="async" />
        </Link>
      ) : null}
      <div className="blog-card__body">
        <p className="blog-card__kicker">
          {post.pinned ? <span className="badge badge--pinned">{t("shop.blog.pinned")}</span> : null}
          {post.category ? <Link to={post.category.href}>{post.category.name}</Link> : null}
        </p>
        <h2 className="blog-card__title">
          <Link to={post.href}>{post.title}</Link>
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
          <Link to="/blog">{t("shop.header.blog")}</Link> › {kind === "Category" ? t("shop.blog.category") : t("shop.blog.tag")}
        </p>
        <h1 id="listing-title">{title}</h1>
        {line ? <p className="muted">{line}</p> : null}
      </header>
      <PostList list={list} basePath={basePath} searchParams={searchParams} label={t("shop.blog.postsIn", { name: title })} empty={empty} />
    </section>
  );
}
