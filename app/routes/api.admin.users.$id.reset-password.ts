import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { ADMIN_MESSAGES, adminResetPasswordSchema } from "~/schemas/admin-users";
import { resetPasswordByAdmin } from "~/services/users.server";

export const loader = () => methodNotAllowed(["PUT"]);

/** PUT /api/admin/users/:id/reset-password {newPassword}: effective at once. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const id = parseId(params.id);
      const { newPassword } = await readBody(request, adminResetPasswordSchema);
      await resetPasswordByAdmin(id, newPassword, actor);
      return ok({ message: ADMIN_MESSAGES.passwordReset });
    },
  });
