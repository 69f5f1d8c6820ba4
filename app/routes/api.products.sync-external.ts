import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-rules";
import { requireApiUser } from "~/lib/permissions.server";
import { syncExternalSchema } from "~/schemas/catalogue";
import { productJson, syncExternalProduct } from "~/services/catalogue.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/products/sync-external {itemId, title, price, images, source, skus, description,
 * isExternalProduct, showInListing, originalUrl, shopName} (logged in) → the product, made
 * once per (source, itemId) even under parallel calls: 201 when created, 200 when it existed.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiUser(request, NO_TOKEN);
      const body = await readBody(request, syncExternalSchema);
      const { product, created } = await syncExternalProduct(body, actor);
      return ok({ data: productJson(product), created }, { status: created ? 201 : 200 });
    },
  });
