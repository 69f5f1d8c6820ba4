import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { getProduct, productJson, shouldCountView } from "~/services/catalogue.server";

/** GET /api/products/:id?incrementView=false → {data: product with skus}. A view is counted unless told not to (or a crawler asks). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const countView = shouldCountView(request, new URL(request.url).searchParams.get("incrementView"));
    return ok({ data: productJson(await getProduct(id, { countView })) });
  });

export const action = () => methodNotAllowed(["GET"]);
