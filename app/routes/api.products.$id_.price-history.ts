import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { getProduct } from "~/services/catalogue/products.server";
import { priceHistoryOfProduct } from "~/services/catalogue/price-history.server";

/**
 * GET /api/products/:id/price-history → `{points: [{at, price}]}` (CNY, oldest first; also
 * as `data.points`): recorded when the listing watch or an edit changes the price.
 */
export const loader = ({ params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const points = await priceHistoryOfProduct(await getProduct(parseId(params.id)));
    return ok({ points, data: { points } });
  });

export const action = () => methodNotAllowed(["GET"]);
