import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { BlogPostListPage } from "~/components/admin/blog-post-list";
import { blogPostListAction, blogPostListLoader } from "~/controllers/admin-blog.server";
import { pageMeta } from "~/lib/meta";
import { BLOG_MESSAGES } from "~/schemas/blog-rules";

/** /admin/blog/posts: every post, filtered; publish toggle (blog.edit or blog.publish), delete (blog.delete). */
export const loader = ({ request }: LoaderFunctionArgs) => blogPostListLoader(request);
export const action = ({ request }: ActionFunctionArgs) => blogPostListAction(request);

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.blogPosts.pageTitle", noindex: true });

export default function AdminBlogPosts() {
  return <BlogPostListPage data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.loadFailed} />;
}
