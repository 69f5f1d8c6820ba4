import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { BlogPostForm } from "~/components/admin/blog-post-form";
import { postFormAction, postFormLoader } from "~/controllers/admin-blog-post-form.server";
import { pageMeta } from "~/lib/meta";
import { useT } from "~/i18n/i18n";
import { BLOG_MESSAGES } from "~/schemas/blog-rules";

/** /admin/blog/posts/new (blog.create, in any status). */
export const loader = ({ request }: LoaderFunctionArgs) => postFormLoader(request, { kind: "create" });
export const action = ({ request }: ActionFunctionArgs) => postFormAction(request, { kind: "create" });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.blogPost.newPageTitle", noindex: true });

export default function NewBlogPost() {
  const data = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/blog/posts">← {t("admin.nav.blogPosts")}</Link>
        </p>
        <h1>{t("admin.blogPost.newTitle")}</h1>
      </header>
      <BlogPostForm data={data} lastResult={outcome?.result} fatal={outcome?.fatal} />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.postLoadFailed} />;
}
