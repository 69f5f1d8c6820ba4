import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { getApiUser } from "~/services/request-user.server";
import { getAccess } from "~/services/permissions.server";
import { categoriesForStorefront, categoryJson } from "~/services/catalogue/categories.server";

/**
 * GET /api/categories → {data: [category with parent_id, sort_order, product_count]}; the
 * counts are of the products the caller's lists show.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const user = await getApiUser(request);
    return ok({ data: (await categoriesForStorefront(user ? await getAccess(user) : null)).map(categoryJson) });
  });

export const action = () => methodNotAllowed(["GET"]);
