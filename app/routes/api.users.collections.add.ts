import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiUser } from "~/services/permissions.server";
import { CATALOGUE_MESSAGES, collectionBodySchema } from "~/schemas/catalogue";
import { collect } from "~/services/catalogue/collections.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/users/collections/add {productId}: idempotent; an unknown product answers 404. */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { user } = await requireApiUser(request, NO_TOKEN);
      const { productId } = await readBody(request, collectionBodySchema);
      await collect(user, productId);
      return ok({ message: CATALOGUE_MESSAGES.collected, isCollected: true });
    },
  });
