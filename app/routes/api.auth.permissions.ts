import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";

/** GET /api/auth/permissions → data: {userType, roles, directPermissions, allPermissions, hasAdminAccess}. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { access } = await requireApiUser(request);
    return ok({ data: access });
  });

export const action = () => methodNotAllowed(["GET"]);
