import type { LoaderFunctionArgs } from "@remix-run/node";
import { PRODUCT_ID_HEADER } from "~/lib/content-version.server";
import { SHARED_WITH_EVERYONE } from "~/lib/shared-answers.server";
import { ApiError, apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { PLATFORMS, type Platform } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import { productDetailJson } from "~/services/catalogue/common.server";
import { getProductByItem, shouldCountView } from "~/services/catalogue/products.server";

/** GET /api/products/platform/:itemId?platform&incrementView → {data: product}. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const itemId = params.itemId ?? "";
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(itemId)) {
      throw new ApiError(400, CATALOGUE_MESSAGES.itemIdInvalid, "VALIDATION_ERROR", [
        { field: "itemId", message: CATALOGUE_MESSAGES.itemIdInvalid },
      ]);
    }
    const url = new URL(request.url);
    const platform = url.searchParams.get("platform") || null;
    if (platform && !(PLATFORMS as readonly string[]).includes(platform)) {
      throw new ApiError(400, CATALOGUE_MESSAGES.platformInvalid, "VALIDATION_ERROR", [
        { field: "platform", message: CATALOGUE_MESSAGES.platformInvalid },
      ]);
    }
    const countView = shouldCountView(request, url.searchParams.get("incrementView"));
    const product = await getProductByItem(itemId, platform as Platform | null, { countView });
    // names the product for the server's front, which keeps this answer (never sent)
    return ok(
      { data: await productDetailJson(product) },
      { headers: { ...SHARED_WITH_EVERYONE, [PRODUCT_ID_HEADER]: String(product.id) } },
    );
  });

export const action = () => methodNotAllowed(["GET"]);
