import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { listAllPermissions } from "~/services/users.server";

/** GET /api/admin/permissions → data: every permission {id, name, description}. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const permissions = await listAllPermissions();
    return ok({ data: permissions, permissions });
  });

export const action = () => methodNotAllowed(["GET"]);
