import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { forceRefreshRates } from "~/services/currency.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/admin/exchange-rates/refresh (super admin): fetches the rate files now,
 * ignoring the daily limit. When a source answers, the live rates are in effect (automatic
 * mode); when none does, the answer says so and the rates in effect stay.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const { fetched, ...data } = await forceRefreshRates(actor);
      return ok({
        message: fetched ? "Exchange rates refreshed" : "The rate sources did not answer: the rates in effect were kept",
        fetched,
        data,
      });
    },
  });
