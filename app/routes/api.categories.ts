import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { categoriesForStorefront, categoryJson } from "~/services/catalogue.server";

/** GET /api/categories → {data: [category with parent_id, sort_order, product_count]}. */
export const loader = () => apiRoute(async () => ok({ data: (await categoriesForStorefront()).map(categoryJson) }));

export const action = () => methodNotAllowed(["GET"]);
