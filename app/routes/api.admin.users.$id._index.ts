import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { ADMIN_MESSAGES, adminUpdateUserSchema, USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { deleteUserByAdmin, getUserForAdmin, updateUserByAdmin } from "~/services/users.server";

/** GET /api/admin/users/:id → data: the user with roles, direct permissions and userType. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const { json } = await getUserForAdmin(parseId(params.id));
    return ok({ data: json });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** Applies only the fields that differ (username, email, phone, is_admin, avatar_url). */
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.id);
      const input = await readBody(request, adminUpdateUserSchema);
      const { changed, user } = await updateUserByAdmin(id, input, actor);
      return ok({ message: changed ? ADMIN_MESSAGES.updated : ADMIN_MESSAGES.noChanges, changed, data: user });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request);
      await deleteUserByAdmin(parseId(params.id), actor);
      return ok({ message: ADMIN_MESSAGES.deleted });
    },
  });
