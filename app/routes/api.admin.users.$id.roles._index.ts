import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { getUserRoles } from "~/services/users.server";

/** GET /api/admin/users/:id/roles → data: roles in force, with expiresAt and assignedAt. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const roles = await getUserRoles(parseId(params.id));
    return ok({ data: roles, roles });
  });

export const action = () => methodNotAllowed(["GET"]);
