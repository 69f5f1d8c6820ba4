import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { pageEnvelope, parseQuery } from "~/lib/query.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { ADMIN_MESSAGES, adminCreateUserSchema, USER_MANAGEMENT_PERMISSIONS, USER_TYPE_FILTERS } from "~/schemas/admin-users";
import { createUserByAdmin, listUsersForAdmin } from "~/services/users.server";

/** Stricter than the page: a bad page/limit/userType is a 400 here, not a silent default. */
const apiListQuerySchema = z.object({
  page: z.coerce
    .number("page must be a positive integer")
    .int("page must be a positive integer")
    .min(1, "page must be a positive integer")
    .optional(),
  limit: z.coerce
    .number("limit must be 1 to 100")
    .int("limit must be 1 to 100")
    .min(1, "limit must be 1 to 100")
    .max(100, "limit must be 1 to 100")
    .optional(),
  q: z.string().trim().max(100, "q is too long").optional(),
  userType: z.enum(USER_TYPE_FILTERS, "userType must be all, admin or regular").optional(),
});

/** GET /api/admin/users?page&limit&q&userType → items, totalItems, totalPages, currentPage. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
    const list = await listUsersForAdmin(parseQuery(request, apiListQuerySchema));
    return ok({ ...pageEnvelope({ ...list, page: list.currentPage }), counts: list.counts });
  });

/** POST /api/admin/users {username, email, password, firstName, lastName, phone, roleIds}. */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request);
      const input = await readBody(request, adminCreateUserSchema);
      const user = await createUserByAdmin(input, actor);
      return ok({ message: ADMIN_MESSAGES.created, data: user }, { status: 201 });
    },
  });
