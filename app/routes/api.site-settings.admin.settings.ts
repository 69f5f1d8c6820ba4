import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { SETTINGS_MESSAGES } from "~/schemas/admin-site-settings";
import { getSettingsForAdmin, saveSettingsByAdmin } from "~/services/site-tools.server";

/** GET /api/site-settings/admin/settings → data: key → {value, description}. Super admins only. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { superAdmin: true });
    return ok({ data: await getSettingsForAdmin() });
  });

const bodySchema = z.object({ settings: z.unknown() });

/** PUT {settings: {key: value}}: unknown keys, bad booleans and partial URLs answer 400. */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request);
      const { settings } = await readBody(request, bodySchema);
      const data = await saveSettingsByAdmin(settings, actor);
      return ok({ message: SETTINGS_MESSAGES.saved, data });
    },
  });
