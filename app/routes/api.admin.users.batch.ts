import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { adminBatchBodySchema, batchSummary, parseBatchEntries } from "~/schemas/admin-users";
import { batchCreateUsers } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/admin/users/batch {users: [...]}: each entry a user object or a
 * "username,email,password,firstName,lastName,phone" line. Answers the counts and the
 * failures by index (0-based), both at the top level and in data.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request);
      const { users } = await readBody(request, adminBatchBodySchema);
      const result = await batchCreateUsers(parseBatchEntries(users), actor);
      return ok({
        message: batchSummary(result.success, result.failed),
        failed: result.failed,
        errors: result.errors,
        data: { success: result.success, failed: result.failed, errors: result.errors, created: result.created },
      });
    },
  });
