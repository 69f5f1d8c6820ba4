import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiUser } from "~/services/permissions.server";
import { syncExternalSchema } from "~/schemas/catalogue";
import { productJson } from "~/services/catalogue/common.server";
import { syncExternal } from "~/marketplace/import.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/products/sync-external {itemId, title, price, images, source, skus, description,
 * isExternalProduct, showInListing, originalUrl, shopName} (logged in) → the product, made
 * once per (source, itemId) even under parallel calls: 201 when created, 200 when it existed.
 * Staff who create or edit products give the data; for anyone else the server reads the
 * item from the marketplace (404 / 502 when it cannot, and nothing is stored).
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiUser(request, NO_TOKEN);
      const body = await readBody(request, syncExternalSchema);
      const { product, created } = await syncExternal(body, actor, String(context.clientIp ?? ""));
      return ok({ data: productJson(product), created }, { status: created ? 201 : 200 });
    },
  });
