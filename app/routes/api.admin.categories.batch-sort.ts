import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { categoryBatchSortSchema } from "~/schemas/catalogue";
import { batchSortCategories } from "~/services/catalogue/categories.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/admin/categories/batch-sort {sortData: [{id, sort_order}]} (product.edit): all or nothing. */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const { sortData } = await readBody(request, categoryBatchSortSchema);
      const updated = await batchSortCategories(sortData, actor);
      return ok({ message: "Sort order saved", data: { updated } });
    },
  });
