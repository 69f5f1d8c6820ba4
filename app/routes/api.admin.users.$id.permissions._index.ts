import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { getUserDirectPermissions } from "~/services/users.server";

/** GET /api/admin/users/:id/permissions → directPermissions (granted one by one). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const directPermissions = await getUserDirectPermissions(parseId(params.id));
    return ok({ directPermissions, data: { directPermissions } });
  });

export const action = () => methodNotAllowed(["GET"]);
