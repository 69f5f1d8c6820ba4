import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { BLOG_MESSAGES, blogSettingsSchema } from "~/schemas/blog";
import { blogSettingsJson, loadBlogSettings, saveBlogSettings } from "~/services/blog/settings.server";

/** GET /api/blog/settings → {data: {comments_enabled, comment_moderation, posts_per_page}}. */
export const loader = () => apiRoute(async () => ok({ data: blogSettingsJson(await loadBlogSettings()) }));

export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    /** the same keys, each optional (blog.edit) */
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const body = await readBody(request, blogSettingsSchema);
      return ok({ message: BLOG_MESSAGES.settingsSaved, data: blogSettingsJson(await saveBlogSettings(body, actor)) });
    },
  });
