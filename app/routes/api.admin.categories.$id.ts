import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { CATALOGUE_MESSAGES, categoryInputSchema } from "~/schemas/catalogue";
import { categoryJson, deleteCategoryByAdmin, getCategory, updateCategoryByAdmin } from "~/services/catalogue/categories.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, undefined, NO_TOKEN);
    return ok({ data: categoryJson(await getCategory(parseId(params.id))) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** {name, description?, parent_id?, sort_order?}: only what differs changes ('No changes detected.'). */
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const id = parseId(params.id);
      const body = await readBody(request, categoryInputSchema.partial());
      const { category, changed } = await updateCategoryByAdmin(id, body, actor);
      return ok({ message: changed ? "Category updated" : CATALOGUE_MESSAGES.categoryNoChanges, changed, data: categoryJson(category) });
    },
    /** Refused (409) while it has subcategories; its products become uncategorised. */
    DELETE: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      await deleteCategoryByAdmin(parseId(params.id), actor);
      return ok({ message: "Category deleted" });
    },
  });
