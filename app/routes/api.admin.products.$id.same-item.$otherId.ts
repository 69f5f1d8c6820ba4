import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { sameItemDecisionSchema } from "~/schemas/photo-search";
import { decideSameItemByAdmin } from "~/services/catalogue/same-item.server";
import { requireApiAdmin } from "~/services/permissions.server";

export const loader = () => methodNotAllowed(["PUT"]);

/**
 * PUT /api/admin/products/:id/same-item/:otherId {decision: "linked" | "dismissed" | null}
 * (product.edit): staff's word that the two listings are the same item, are not, or (null)
 * that their photos decide again.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const { decision } = await readBody(request, sameItemDecisionSchema);
      await decideSameItemByAdmin(parseId(params.id), parseId(params.otherId, "otherId"), decision, actor);
      return ok({ data: { decision } });
    },
  });
