import { data as withInit, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { BlogPostView, blogPostMeta, type BlogPostPageData } from "~/components/storefront/blog-post";
import { ErrorPage } from "~/components/ui/error-page";
import { loadPostPage, postPageAction } from "~/controllers/blog-pages.server";
import { BLOG_POST_ID_HEADER } from "~/lib/content-version.server";
import { rememberedHtml } from "~/lib/html-slot";
import { sharedPageHeaders } from "~/lib/shared-answers.server";

/** /blog/:slug: a post (its body sent once, outside the data: see clientLoader), likes and comments. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await loadPostPage(request, context.clientIp, params.slug ?? "");
  // a public post's page may be kept for visitors: the server's front then counts its views
  return withInit(page, page.post.isPublic ? { headers: { [BLOG_POST_ID_HEADER]: String(page.post.id) } } : undefined);
}

/** The same page for every visitor: shared caches (the server's front) may keep it (docs/decisions/035-kept-only-when-the-answer-says-so.md). */
export const headers = sharedPageHeaders;

export async function action({ request, params }: ActionFunctionArgs) {
  return postPageAction(request, params.slug ?? "");
}

/**
 * A client-side navigation has no server-rendered body in the page: the body comes from
 * the post API (or from what this tab already holds), beside the loader's data.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  const key = `${data.post.slug}@${data.post.updatedAt}`;
  let bodyHtml = rememberedHtml(key);
  if (bodyHtml === undefined) {
    const response = await fetch(`/api/blog/posts/${encodeURIComponent(data.post.slug)}`, { headers: { Accept: "application/json" } });
    bodyHtml = response.ok ? ((await response.json()) as { data: { content: string } }).data.content : "";
  }
  return { ...data, bodyHtml };
}

export default function BlogPost() {
  const data = useLoaderData<typeof loader>() as BlogPostPageData & { bodyHtml?: string };
  const actionData = useActionData<typeof action>();
  return (
    <BlogPostView data={data} bodyHtml={data.bodyHtml} actionData={actionData && "commentError" in actionData ? actionData : undefined} />
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => blogPostMeta(matches, data);

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
