import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { requireApiAdmin } from "~/services/permissions.server";
import { manualRatesSchema, RATE_MESSAGES } from "~/schemas/catalogue";
import { getRates, setManualRatesFromInput } from "~/services/currency.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { superAdmin: true }, NO_TOKEN);
    return ok({ data: await getRates() });
  });

/**
 * PUT /api/admin/exchange-rates {rates: {USD: 7.1, ...}} (super admin): values greater
 * than zero are kept and the mode becomes manual; none valid → 400 '请输入有效的汇率（正数）'.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const { rates } = await readBody(request, manualRatesSchema);
      const saved = await setManualRatesFromInput(rates, actor);
      return ok({ message: RATE_MESSAGES.saved, data: saved });
    },
  });
