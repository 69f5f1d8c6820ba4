import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { ADMIN_MESSAGES } from "~/schemas/admin-users";
import { getUserDirectPermissions, grantPermissionToUser, revokePermissionFromUser } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST", "DELETE"]);

/** POST grants one permission, DELETE revokes it: super admins only. No body. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, { superAdmin: true });
      const userId = parseId(params.id);
      await grantPermissionToUser(userId, parseId(params.permissionId, "permissionId"), actor);
      return ok({ message: ADMIN_MESSAGES.permissionGranted, directPermissions: await getUserDirectPermissions(userId) });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request, { superAdmin: true });
      const userId = parseId(params.id);
      await revokePermissionFromUser(userId, parseId(params.permissionId, "permissionId"), actor);
      return ok({ message: ADMIN_MESSAGES.permissionRevoked, directPermissions: await getUserDirectPermissions(userId) });
    },
  });
