import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { blogSettingsAction, blogSettingsLoader } from "~/controllers/admin-blog.server";
import { pageMeta } from "~/lib/meta";
import { BLOG_ADMIN_PATHS, BLOG_MESSAGES, POSTS_PER_PAGE_MAX } from "~/schemas/blog-rules";
import { useI18n } from "~/i18n/i18n";

const SETTINGS_PATH = BLOG_ADMIN_PATHS.settings;

/** /admin/blog/settings (blog.edit): comments on or off, moderation, posts per page. */
export const loader = ({ request }: LoaderFunctionArgs) => blogSettingsLoader(request);
export const action = ({ request }: ActionFunctionArgs) => blogSettingsAction(request);

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.blogSettings.pageTitle", noindex: true });

export default function AdminBlogSettings() {
  const { settings } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors ?? {};
  const { t, message } = useI18n();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <h1>{t("admin.nav.blogSettings")}</h1>
      </header>
      <Form method="post" action={SETTINGS_PATH} className="card">
        <label className="admin-check">
          <input type="checkbox" name="comments_enabled" defaultChecked={settings.commentsEnabled} />{" "}
          {t("admin.blogSettings.commentsEnabled")}
        </label>
        <label className="admin-check">
          <input type="checkbox" name="comment_moderation" defaultChecked={settings.commentModeration} />{" "}
          {t("admin.blogSettings.moderation")}
        </label>
        <p className="muted">{t("admin.blogSettings.moderationNote")}</p>
        <div className="field">
          <label htmlFor="posts-per-page">{t("admin.blogSettings.postsPerPage")}</label>
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
            {errors.posts_per_page ? message(errors.posts_per_page) : null}
          </div>
        </div>
        <div className="form-actions">
          <SubmitButton className="button" pendingText={t("admin.common.saving")}>
            {t("admin.siteSettings.save")}
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={BLOG_MESSAGES.loadFailed} />;
}
