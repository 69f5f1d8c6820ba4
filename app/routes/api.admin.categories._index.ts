import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { categoryCreateFormSchema } from "~/schemas/catalogue";
import { categoriesForStorefront, categoryJson, createCategory } from "~/services/catalogue/categories.server";

/** GET /api/admin/categories → {data: [category]} (back-office access). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { access } = await requireApiAdmin(request, undefined, NO_TOKEN);
    return ok({ data: (await categoriesForStorefront(access)).map(categoryJson) });
  });

/**
 * POST /api/admin/categories {name, description?, parent_id?, sort_order?} (product.create) →
 * 201 {data}. An empty name says '分类名称是必填的' (docs/product/admin.md 5, "Shop category create").
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const body = await readBody(request, categoryCreateFormSchema);
      return ok({ message: "Category created", data: categoryJson(await createCategory(body, actor)) }, { status: 201 });
    },
  });
