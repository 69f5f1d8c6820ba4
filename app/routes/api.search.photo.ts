import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { searchByUploadedPhoto } from "~/controllers/photo-search.server";
import { productJson } from "~/services/catalogue/common.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/search/photo, multipart field `image` (no account needed) →
 * {success, items: [{product, score, image}], nothingClose}: the products whose pictures
 * match, best first (score 1 = the same picture; image = the product image or approved QC
 * photo that matched). Nothing uploaded here is stored.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const answer = await searchByUploadedPhoto(request, String(context.clientIp ?? ""));
      return ok({
        items: answer.items.map((item) => ({ product: productJson(item.product), score: item.score, image: item.imageUrl })),
        nothingClose: answer.nothingClose,
      });
    },
  });
