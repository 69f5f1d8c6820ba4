import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { productUpdateSchema } from "~/schemas/catalogue";
import { productDetailJson } from "~/services/catalogue/common.server";
import { deleteProductByAdmin, getProduct, updateProductByAdmin } from "~/services/catalogue/products.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: ["product.create", "product.edit", "product.delete"] }, NO_TOKEN);
    return ok({ data: await productDetailJson(await getProduct(parseId(params.id))) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** Only the fields given change; `skus` (when given) replaces the SKUs. */
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const id = parseId(params.id);
      const body = await readBody(request, productUpdateSchema);
      return ok({ message: "Product updated", data: await productDetailJson(await updateProductByAdmin(id, body, actor)) });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      await deleteProductByAdmin(parseId(params.id), actor);
      return ok({ message: "Product deleted" });
    },
  });
