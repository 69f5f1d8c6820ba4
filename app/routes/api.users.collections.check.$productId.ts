import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiUser } from "~/services/permissions.server";
import { collectionState } from "~/services/catalogue/collections.server";

/** GET /api/users/collections/check/:productId → {isCollected}. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { user } = await requireApiUser(request, NO_TOKEN);
    const isCollected = await collectionState(user, parseId(params.productId, "productId"));
    return ok({ isCollected, data: { isCollected } });
  });

export const action = () => methodNotAllowed(["GET"]);
