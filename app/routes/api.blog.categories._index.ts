import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { optionalApiUser, requireApiAdmin } from "~/services/permissions.server";
import { blogCategoryInputSchema } from "~/schemas/blog";
import { categoryJson } from "~/services/blog/common.server";
import { createBlogCategory, listCategoriesFor } from "~/services/blog/categories.server";

/** GET /api/blog/categories → {data: [category]}: flat, with parent_id and post_count (visible ones for visitors). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const caller = await optionalApiUser(request);
    return ok({ data: (await listCategoriesFor(caller?.access)).map(categoryJson) });
  });

export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    /** {name, slug?, description?, parent_id?, display_order?, is_visible?} (blog.manage_categories) */
    POST: async () => {
      const actor = await requireApiAdmin(request);
      const body = await readBody(request, blogCategoryInputSchema);
      return ok({ message: "Category created", data: categoryJson(await createBlogCategory(body, actor)) }, { status: 201 });
    },
  });
