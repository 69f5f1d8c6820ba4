import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { productInputSchema, productListQuerySchema, REPEATED_QUERY_KEYS } from "~/schemas/catalogue";
import { productDetailJson, productJson } from "~/services/catalogue/common.server";
import { createProduct, listCatalogue } from "~/services/catalogue/products.server";

const PRODUCT_ACCESS = { anyOf: ["product.create", "product.edit", "product.delete"] } as const;

/** GET /api/admin/products?page&limit&q&isExternal&categoryId (and the shopper's filters and sorts): every product (no storefront rules). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { access } = await requireApiAdmin(request, PRODUCT_ACCESS, NO_TOKEN);
    const query = parseQuery(request, productListQuerySchema, REPEATED_QUERY_KEYS);
    const page = await listCatalogue({ ...query, sort: query.sortBy }, access);
    return ok(pageEnvelope({ ...page, items: page.items.map(productJson) }));
  });

/**
 * POST /api/admin/products {name, description, price_cny, category_id, main_images,
 * platform, platform_item_id, original_url, skus} (product.create) → 201 {data}. A local
 * product: is_external is always false here. Field errors are listed in `errors`.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const body = await readBody(request, productInputSchema);
      return ok({ message: "Product created", data: await productDetailJson(await createProduct(body, actor)) }, { status: 201 });
    },
  });
