import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { productJson } from "~/services/catalogue/common.server";
import { getProduct } from "~/services/catalogue/products.server";
import { probablySameItems } from "~/services/catalogue/same-item.server";
import { requireApiAdmin } from "~/services/permissions.server";

/**
 * GET /api/admin/products/:id/same-item → {data: [{product, score, decision}]}: the listings
 * this product's photos match ("probably the same item as #n"), with staff's word on each
 * (linked, dismissed or null), and those staff linked.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: ["product.create", "product.edit"] }, NO_TOKEN);
    const product = await getProduct(parseId(params.id));
    const items = await probablySameItems(product.id);
    return ok({ data: items.map((item) => ({ product: productJson(item.product), score: item.score, decision: item.decision })) });
  });

export const action = () => methodNotAllowed(["GET"]);
