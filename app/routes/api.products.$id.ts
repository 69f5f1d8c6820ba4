import type { LoaderFunctionArgs } from "@remix-run/node";
import { PRODUCT_ID_HEADER } from "~/lib/content-version.server";
import { SHARED_WITH_EVERYONE } from "~/lib/shared-answers.server";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { productDetailJson } from "~/services/catalogue/common.server";
import { getProduct, shouldCountView } from "~/services/catalogue/products.server";

/** GET /api/products/:id?incrementView=false → {data: product with skus}. A view is counted unless told not to (or a crawler asks). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const id = parseId(params.id);
    const countView = shouldCountView(request, new URL(request.url).searchParams.get("incrementView"));
    const product = await getProduct(id, { countView });
    // names the product for the server's front, which keeps this answer (never sent)
    return ok(
      { data: await productDetailJson(product) },
      { headers: { ...SHARED_WITH_EVERYONE, [PRODUCT_ID_HEADER]: String(product.id) } },
    );
  });

export const action = () => methodNotAllowed(["GET"]);
