import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/lib/permissions.server";
import { manualRatesSchema, RATE_MESSAGES } from "~/schemas/catalogue";
import { getRates, setManualRates } from "~/services/currency.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, { superAdmin: true });
    return ok({ data: await getRates() });
  });

/**
 * PUT /api/admin/exchange-rates {rates: {USD: 7.1, ...}} (super admin): values greater
 * than zero are kept and the mode becomes manual; none valid → 400 '请输入有效的汇率（正数）'.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      await requireApiAdmin(request, { superAdmin: true });
      const { rates } = await readBody(request, manualRatesSchema);
      const numbers: Record<string, number> = {};
      for (const [code, value] of Object.entries(rates)) {
        const number = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
        if (Number.isFinite(number) && number > 0) numbers[code.toUpperCase()] = number;
      }
      const known = Object.keys(numbers).filter((code) => ["USD", "EUR", "GBP", "JPY", "KRW", "AUD", "CAD"].includes(code));
      if (known.length === 0) throw new ApiError(400, RATE_MESSAGES.invalid, "VALIDATION_ERROR", [{ field: "rates", message: RATE_MESSAGES.invalid }]);
      return ok({ message: RATE_MESSAGES.saved, data: await setManualRates(numbers) });
    },
  });
