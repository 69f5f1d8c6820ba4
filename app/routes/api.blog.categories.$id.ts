import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { optionalApiUser, requireApiAdmin } from "~/services/permissions.server";
import { BLOG_MESSAGES, blogCategoryUpdateSchema } from "~/schemas/blog";
import { categoryJson } from "~/services/blog/common.server";
import { deleteBlogCategoryByAdmin, listCategoriesFor, updateBlogCategoryByAdmin } from "~/services/blog/categories.server";

/** GET /api/blog/categories/:id → {data: category} (hidden ones only for blog staff). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const caller = await optionalApiUser(request);
    const category = (await listCategoriesFor(caller?.access)).find((c) => c.id === id);
    if (!category) throw new ApiError(404, BLOG_MESSAGES.categoryNotFound, "NOT_FOUND");
    return ok({ data: categoryJson(category) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** the fields given change; never under itself or one of its subcategories (blog.manage_categories) */
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.id);
      const body = await readBody(request, blogCategoryUpdateSchema);
      return ok({ message: "Category updated", data: categoryJson(await updateBlogCategoryByAdmin(id, body, actor)) });
    },
    /** its subcategories move up to its parent, its posts become uncategorised */
    DELETE: async () => {
      const actor = await requireApiAdmin(request);
      await deleteBlogCategoryByAdmin(parseId(params.id), actor);
      return ok({ message: "Category deleted" });
    },
  });
