import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { listAllRoles } from "~/services/users.server";

/** GET /api/admin/roles → data: every role {id, name, description}. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const roles = await listAllRoles();
    return ok({ data: roles, roles });
  });

export const action = () => methodNotAllowed(["GET"]);
