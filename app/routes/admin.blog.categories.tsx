import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { BlogCategoriesPage } from "~/components/admin/blog-categories";
import { blogCategoriesAction, blogCategoriesLoader } from "~/controllers/admin-blog.server";
import { pageMeta } from "~/lib/meta";
import { BLOG_MESSAGES } from "~/schemas/blog-rules";

/** /admin/blog/categories: the blog's category tree (any blog permission to see it, blog.manage_categories to change it). */
export const loader = ({ request }: LoaderFunctionArgs) => blogCategoriesLoader(request, "/admin/blog/categories");
export const action = ({ request }: ActionFunctionArgs) => blogCategoriesAction(request, "/admin/blog/categories");

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.blogCategories.pageTitle", noindex: true });

export default function AdminBlogCategoriesAlias() {
  return <BlogCategoriesPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.categoryLoadFailed} />;
}
