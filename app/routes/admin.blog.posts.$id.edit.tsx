import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { BlogPostForm } from "~/components/admin/blog-post-form";
import { formatDateTime } from "~/components/admin/format";
import { postFormAction, postFormLoader, postIdParam } from "~/controllers/admin-blog-post-form.server";
import { pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useT } from "~/i18n/i18n";
import { postStatusLabel } from "~/components/admin/labels";
import { BLOG_MESSAGES } from "~/schemas/blog-rules";

/** /admin/blog/posts/:id/edit (blog.edit, the status included). */
export const loader = ({ request, params }: LoaderFunctionArgs) => postFormLoader(request, { kind: "edit", id: postIdParam(params.id) });
export const action = ({ request, params }: ActionFunctionArgs) => postFormAction(request, { kind: "edit", id: postIdParam(params.id) });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.blogPost.editPageTitle", { title: data?.post?.title ?? t("admin.blogPost.post") }),
    noindex: true,
  });
};

export default function EditBlogPost() {
  const data = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const t = useT();
  const post = data.post!;
  return (
    <div className="admin-page">
      <header className="admin-page__header admin-page__header--row">
        <div>
          <p>
            <Link to="/admin/blog/posts">← {t("admin.nav.blogPosts")}</Link>
          </p>
          <h1>{t("admin.blogPost.editTitle")}</h1>
          <p className="muted">
            {t("admin.blogPost.facts", {
              status: postStatusLabel(t, post.status),
              author: post.author ?? "—",
              created: formatDateTime(post.createdAt),
              updated: formatDateTime(post.updatedAt),
              views: post.views,
            })}
          </p>
        </div>
        <div className="admin-toolbar">
          <a href={post.path} target="_blank" rel="noreferrer" className="button button--secondary">
            {post.live ? t("admin.blogPost.viewPost") : t("admin.blogPost.preview")}
          </a>
        </div>
      </header>
      <BlogPostForm key={`${post.id}@${post.updatedAt}`} data={data} lastResult={outcome?.result} fatal={outcome?.fatal} />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.postLoadFailed} />;
}
