import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { ADMIN_MESSAGES, roleAssignmentSchema } from "~/schemas/admin-users";
import { assignRoleToUser, getUserRoles, revokeRoleFromUser } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST", "DELETE"]);

/** POST assigns the role (body expiresAt optional), DELETE revokes it: super admins only. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, { superAdmin: true });
      const userId = parseId(params.id);
      const roleId = parseId(params.roleId, "roleId");
      const { expiresAt } = await readBody(request, roleAssignmentSchema);
      await assignRoleToUser(userId, roleId, expiresAt, actor);
      return ok({ message: ADMIN_MESSAGES.roleAssigned, data: await getUserRoles(userId) });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request, { superAdmin: true });
      const userId = parseId(params.id);
      await revokeRoleFromUser(userId, parseId(params.roleId, "roleId"), actor);
      return ok({ message: ADMIN_MESSAGES.roleRevoked, data: await getUserRoles(userId) });
    },
  });
