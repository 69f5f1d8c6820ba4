/**
 * The post page: the article (its body through <HtmlSlot>, sent once), likes, previous
 * and next posts, and the comments with their likes, replies and the comment form. Every
 * action is a plain form (app/controllers/blog-pages.server.ts).
 */
import type { MetaDescriptor } from "@remix-run/node";
import { Form, useRouteLoaderData } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { SubmitButton } from "~/components/ui/submit-button";
import { HtmlSlot } from "~/lib/html-slot";
import { absoluteUrl, pageMeta, rootSiteInfo } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import type { RootLoaderData } from "~/root";
import { COMMENT_LINKS_MAX, COMMENT_MAX } from "~/schemas/blog-comment-limits";
import type { PostStatus } from "~/schemas/blog-rules";
import { useI18n, useT, type Translate } from "~/i18n/i18n";
import { PostMetaLine } from "./blog-cards";
import { dayText } from "~/lib/dates";
import { signInHref } from "~/lib/http";

export type CommentView = {
  id: number;
  author: string;
  avatarUrl: string | null;
  /** sanitised on the server when it was saved */
  html: string;
  createdAt: string;
  pending: boolean;
  likeCount: number;
  liked: boolean;
  own: boolean;
  replies: CommentView[];
};

export type BlogPostPageData = {
  post: {
    id: number;
    title: string;
    slug: string;
    path: string;
    status: PostStatus;
    isPublic: boolean;
    /** the page's description: the meta description, else the excerpt, else the beginning of the text */
    description: string;
    metaTitle: string | null;
    category: { name: string; href: string } | null;
    tags: Array<{ name: string; href: string }>;
    author: string | null;
    publishedAt: string | null;
    updatedAt: string;
    readingTime: number;
    featuredImage: string | null;
    likeCount: number;
    liked: boolean;
    commentCount: number;
  };
  neighbours: { previous: { title: string; href: string } | null; next: { title: string; href: string } | null };
  comments: CommentView[];
  commentsEnabled: boolean;
  moderation: boolean;
  viewer: { username: string } | null;
  replyTo: { id: number; author: string } | null;
  deleteComment: { id: number } | null;
};

export type CommentActionData = { commentError: string; content: string };

/** Title, description, canonical, Open Graph and article tags of a post page. */
export function blogPostMeta(matches: Array<{ id: string; data?: unknown }>, data: BlogPostPageData | undefined): MetaDescriptor[] {
  if (!data) return pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });
  const { post } = data;
  const base = rootSiteInfo(matches)?.site_url ?? "";
  const canonical = absoluteUrl(base, post.path);
  const headline = post.metaTitle || post.title;
  // <title> carries the site's name; og:title is the article's own (og:site_name names the site)
  const tags = pageMeta(matches, { title: headline, description: post.description || undefined, noindex: !post.isPublic }).map((tag) =>
    "property" in tag && tag.property === "og:title" ? { property: "og:title", content: headline } : tag,
  );
  tags.push({ tagName: "link", rel: "canonical", href: canonical });
  tags.push({ property: "og:type", content: "article" });
  tags.push({ property: "og:url", content: canonical });
  if (post.featuredImage) tags.push({ property: "og:image", content: absoluteUrl(base, post.featuredImage) });
  if (post.publishedAt) tags.push({ property: "article:published_time", content: post.publishedAt });
  tags.push({ property: "article:modified_time", content: post.updatedAt });
  if (post.category) tags.push({ property: "article:section", content: post.category.name });
  for (const tag of post.tags) tags.push({ property: "article:tag", content: tag.name });
  tags.push({ name: "twitter:card", content: post.featuredImage ? "summary_large_image" : "summary" });
  return tags;
}

function ArticleJsonLd({ post }: { post: BlogPostPageData["post"] }) {
  const nonce = useNonce();
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const base = root?.siteInfo.site_url ?? "";
  const url = absoluteUrl(base, post.path);
  const json = {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: post.title,
    description: post.description || undefined,
    image: post.featuredImage ? [absoluteUrl(base, post.featuredImage)] : undefined,
    datePublished: post.publishedAt ?? undefined,
    dateModified: post.updatedAt,
    author: post.author ? { "@type": "Person", name: post.author } : undefined,
    publisher: { "@type": "Organization", name: root?.siteInfo.site_name ?? "" },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    url,
    articleSection: post.category?.name,
    keywords: post.tags.length ? post.tags.map((tag) => tag.name).join(", ") : undefined,
  };
  const html = JSON.stringify(json).replace(/</g, "\\u003c");
  return <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A post status's name in the reader's language. */
function statusName(t: Translate, status: PostStatus): string {
  switch (status) {
    case "draft":
      return t("shop.blog.statusDraft");
    case "published":
      return t("shop.blog.statusPublished");
    case "scheduled":
      return t("shop.blog.statusScheduled");
    case "archived":
      return t("shop.blog.statusArchived");
    case "private":
      return t("shop.blog.statusPrivate");
  }
}

const COMMENT_FLOOD = /^You are commenting too fast: please wait (\d+) s before your next comment$/;

/** A comment's refusal in the reader's language (the one that names seconds is read apart). */
function commentErrorText(text: string, t: Translate, message: (text: string) => string): string {
  const flood = COMMENT_FLOOD.exec(text);
  return flood ? t("shop.blog.commentFlood", { seconds: Number(flood[1]) }) : message(text);
}

function LikeBox({ data }: { data: BlogPostPageData }) {
  const { post, viewer } = data;
  const t = useT();
  const label = t("shop.blog.likes", { count: post.likeCount });
  return (
    <div className="blog-like" id="likes">
      {viewer ? (
        <Form method="post" action={post.path} preventScrollReset>
          <SubmitButton
            name="intent"
            value="like"
            className={post.liked ? "button blog-like__button blog-like__button--on" : "button button--secondary blog-like__button"}
            aria-pressed={post.liked}
            pendingText="…"
          >
            {post.liked ? `♥ ${t("shop.blog.liked")}` : `♡ ${t("shop.blog.like")}`}
          </SubmitButton>{" "}
          <span className="blog-like__count">{label}</span>
        </Form>
      ) : (
        <p>
          <span className="blog-like__count">♡ {label}</span> ·{" "}
          <PageLink to={signInHref(`${post.path}#likes`)}>{t("shop.blog.logInToLike")}</PageLink>
        </p>
      )}
    </div>
  );
}

function CommentItem({ comment, data, reply }: { comment: CommentView; data: BlogPostPageData; reply?: boolean }) {
  const { post, viewer } = data;
  const { t, language } = useI18n();
  const here = `${post.path}`;
  return (
    <li id={`comment-${comment.id}`} className={comment.pending ? "blog-comment blog-comment--pending" : "blog-comment"}>
      <div className="blog-comment__head">
        {comment.avatarUrl ? <img src={comment.avatarUrl} alt="" width={28} height={28} className="avatar avatar--small" /> : null}
        <strong>{comment.author}</strong>
        <time dateTime={comment.createdAt} className="muted">
          {dayText(comment.createdAt, language)}
        </time>
        {comment.pending ? <span className="badge badge--pending">{t("shop.blog.awaitingModeration")}</span> : null}
      </div>
      <div className="blog-comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      <div className="blog-comment__actions">
        {viewer && !comment.pending ? (
          <Form method="post" action={post.path} preventScrollReset className="blog-comment__like">
            <input type="hidden" name="commentId" value={comment.id} />
            <button
              type="submit"
              name="intent"
              value="like-comment"
              className="button--link"
              aria-pressed={comment.liked}
              aria-label={
                comment.liked
                  ? t("shop.blog.unlikeComment", { name: comment.author })
                  : t("shop.blog.likeComment", { name: comment.author })
              }
            >
              {comment.liked ? "♥" : "♡"} {comment.likeCount}
            </button>
          </Form>
        ) : (
          <span className="muted" aria-label={t("shop.blog.commentLikes", { count: comment.likeCount })}>
            ♡ {comment.likeCount}
          </span>
        )}
        {!reply && !comment.pending && data.commentsEnabled ? (
          <PageLink to={`${here}?replyTo=${comment.id}#comment-form`} preventScrollReset>
            {t("shop.blog.reply")}
          </PageLink>
        ) : null}
        {comment.own ? (
          <PageLink to={`${here}?deleteComment=${comment.id}#comment-${comment.id}`} className="admin-link--danger" preventScrollReset>
            {t("shop.blog.delete")}
          </PageLink>
        ) : null}
      </div>
      {data.deleteComment?.id === comment.id ? (
        <Form method="post" action={post.path} className="notice notice--warning blog-comment__confirm" preventScrollReset>
          <input type="hidden" name="commentId" value={comment.id} />
          <p>{t("shop.blog.deleteConfirm")}</p>
          <div className="form-actions">
            <SubmitButton name="intent" value="delete-comment" className="button button--danger" pendingText={t("shop.blog.deleting")}>
              {t("shop.blog.deleteComment")}
            </SubmitButton>
            <PageLink to={`${here}#comment-${comment.id}`} className="button button--secondary" preventScrollReset>
              {t("common.cancel")}
            </PageLink>
          </div>
        </Form>
      ) : null}
      {comment.replies.length ? (
        <ol className="blog-comments blog-comments--replies" aria-label={t("shop.blog.repliesTo", { name: comment.author })}>
          {comment.replies.map((child) => (
            <CommentItem key={child.id} comment={child} data={data} reply />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

function CommentForm({ data, actionData }: { data: BlogPostPageData; actionData?: CommentActionData }) {
  const { post, viewer, replyTo } = data;
  const { t, message } = useI18n();
  if (!data.commentsEnabled) return <p className="muted">{t("shop.blog.commentsClosed")}</p>;
  if (!viewer) {
    return (
      <p className="blog-comment-login" id="comment-form">
        <PageLink to={signInHref(`${post.path}#comment-form`)}>{t("shop.blog.logIn")}</PageLink>
        {` ${t("shop.blog.or")} `}
        <PageLink to={signInHref(`${post.path}#comment-form`, "register")}>{t("shop.blog.register")}</PageLink>
        {` ${t("shop.blog.toComment")}`}
      </p>
    );
  }
  return (
    <Form method="post" action={post.path} className="card blog-comment-form" id="comment-form" preventScrollReset>
      <h3>{replyTo ? t("shop.blog.replyTo", { name: replyTo.author }) : t("shop.blog.leaveComment")}</h3>
      {replyTo ? (
        <p className="muted">
          <input type="hidden" name="parent_id" value={replyTo.id} />
          {`${t("shop.blog.replyingTo", { name: replyTo.author })} · `}
          <PageLink to={`${post.path}#comment-form`} preventScrollReset>
            {t("shop.blog.cancelReply")}
          </PageLink>
        </p>
      ) : null}
      {actionData?.commentError ? (
        <div className="form-errors" role="alert" id="comment-error">
          <p>{commentErrorText(actionData.commentError, t, message)}</p>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="comment-content">{t("shop.blog.yourComment", { name: viewer.username })}</label>
        <textarea
          id="comment-content"
          name="content"
          rows={5}
          maxLength={COMMENT_MAX}
          required
          defaultValue={actionData?.content ?? ""}
          aria-describedby="comment-hint"
          aria-invalid={actionData?.commentError ? true : undefined}
        />
        <span className="field__hint" id="comment-hint">
          {`${t("shop.blog.commentHint")} ${data.moderation ? t("shop.blog.moderated") : t("shop.blog.linksModerated", { max: COMMENT_LINKS_MAX })}`}
        </span>
      </div>
      <div className="form-actions">
        <SubmitButton name="intent" value="comment" className="button" pendingText={t("shop.auth.sending")}>
          {replyTo ? t("shop.blog.postReply") : t("shop.blog.postComment")}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function BlogPostView({
  data,
  bodyHtml,
  actionData,
}: {
  data: BlogPostPageData;
  bodyHtml?: string;
  actionData?: CommentActionData;
}) {
  const { post, neighbours, comments } = data;
  const { t, language } = useI18n();
  return (
    <>
      <article className="blog-post" aria-labelledby="post-title">
        <nav aria-label={t("shop.blog.breadcrumb")} className="blog-breadcrumb">
          <PageLink to="/blog">{t("shop.header.blog")}</PageLink>
          {post.category ? (
            <>
              {" › "}
              <PageLink to={post.category.href}>{post.category.name}</PageLink>
            </>
          ) : null}
        </nav>
        {!post.isPublic ? (
          <p className="notice notice--warning" role="status">
            {post.status === "scheduled" && post.publishedAt
              ? t("shop.blog.staffOnlyUntil", { status: statusName(t, post.status), date: dayText(post.publishedAt, language) })
              : t("shop.blog.staffOnly", { status: statusName(t, post.status) })}
          </p>
        ) : null}
        <header className="blog-post__header">
          <h1 id="post-title">{post.title}</h1>
          <PostMetaLine author={post.author} publishedAt={post.publishedAt} readingTime={post.readingTime} />
        </header>
        {post.featuredImage ? (
          <img className="blog-post__image" src={post.featuredImage} alt="" width={1200} height={630} decoding="async" />
        ) : null}
        <HtmlSlot key={post.id} id="post-body" cacheKey={`${post.slug}@${post.updatedAt}`} html={bodyHtml} className="prose" />
        {post.tags.length ? (
          <ul className="blog-tags blog-post__tags" aria-label={t("shop.blog.tags")}>
            {post.tags.map((tag) => (
              <li key={tag.href}>
                <PageLink to={tag.href}>#{tag.name}</PageLink>
              </li>
            ))}
          </ul>
        ) : null}
        <LikeBox data={data} />
        {neighbours.previous || neighbours.next ? (
          <nav className="blog-neighbours" aria-label={t("shop.blog.morePosts")}>
            {neighbours.previous ? (
              <PageLink to={neighbours.previous.href} rel="prev" className="blog-neighbours__prev">
                <span className="muted">{`‹ ${t("shop.blog.previousPost")}`}</span>
                <span>{neighbours.previous.title}</span>
              </PageLink>
            ) : (
              <span />
            )}
            {neighbours.next ? (
              <PageLink to={neighbours.next.href} rel="next" className="blog-neighbours__next">
                <span className="muted">{`${t("shop.blog.nextPost")} ›`}</span>
                <span>{neighbours.next.title}</span>
              </PageLink>
            ) : null}
          </nav>
        ) : null}
        <ArticleJsonLd post={post} />
      </article>

      <section className="blog-comments-section" id="comments" aria-labelledby="comments-title">
        <h2 id="comments-title">{t("shop.blog.comments", { count: post.commentCount })}</h2>
        {comments.length ? (
          <ol className="blog-comments">
            {comments.map((comment) => (
              <CommentItem key={comment.id} comment={comment} data={data} />
            ))}
          </ol>
        ) : (
          <p className="muted">{t("shop.blog.noComments")}</p>
        )}
        <CommentForm data={data} actionData={actionData} />
      </section>
    </>
  );
}
