import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiUser } from "~/services/permissions.server";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import { uncollect } from "~/services/catalogue/collections.server";

export const loader = () => methodNotAllowed(["DELETE"]);

/** DELETE /api/users/collections/remove/:productId (removing twice changes nothing). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    DELETE: async () => {
      const { user } = await requireApiUser(request, NO_TOKEN);
      await uncollect(user, parseId(params.productId, "productId"));
      return ok({ message: CATALOGUE_MESSAGES.uncollected, isCollected: false });
    },
  });
