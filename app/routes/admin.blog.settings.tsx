import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { blogSettingsAction, blogSettingsLoader } from "~/controllers/admin-blog.server";
import { pageMeta } from "~/lib/meta";
import { BLOG_ADMIN_PATHS, BLOG_MESSAGES, POSTS_PER_PAGE_MAX } from "~/schemas/blog-rules";

const SETTINGS_PATH = BLOG_ADMIN_PATHS.settings;

/** /admin/blog/settings (blog.edit): comments on or off, moderation, posts per page. */
export const loader = ({ request }: LoaderFunctionArgs) => blogSettingsLoader(request);
export const action = ({ request }: ActionFunctionArgs) => blogSettingsAction(request);

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Blog settings · Admin", noindex: true });

export default function AdminBlogSettings() {
  const { settings } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors ?? {};
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <h1>Blog settings</h1>
      </header>
      <Form method="post" action={SETTINGS_PATH} className="card">
        <label className="admin-check">
          <input type="checkbox" name="comments_enabled" defaultChecked={settings.commentsEnabled} /> Readers may comment
        </label>
        <label className="admin-check">
          <input type="checkbox" name="comment_moderation" defaultChecked={settings.commentModeration} /> Hold every comment for moderation
        </label>
        <p className="muted">Even without moderation, a comment with more than two links waits for it; staff comments never do.</p>
        <div className="field">
          <label htmlFor="posts-per-page">Posts per page</label>
          <input
            id="posts-per-page"
            name="posts_per_page"
            type="number"
            min={1}
            max={POSTS_PER_PAGE_MAX}
            step={1}
            defaultValue={settings.postsPerPage}
            aria-describedby="posts-per-page-error"
          />
          <div id="posts-per-page-error" className="field__error" aria-live="polite">
            {errors.posts_per_page}
          </div>
        </div>
        <div className="form-actions">
          <SubmitButton className="button" pendingText="Saving…">
            Save settings
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.loadFailed} />;
}
