import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { currencyRatesView } from "~/services/currency.server";

/**
 * GET /api/currency/rates → every display currency offered (contract: at least 20):
 * `{data: {base: "CNY", rates: {USD: 6.64, ...}, currencies: [{code, name, symbol,
 * decimals, rate}], mode, lastUpdated}}`, rates in CNY per one unit.
 */
export const loader = () =>
  apiRoute(async () => ok({ data: await currencyRatesView() }, { headers: { "Cache-Control": "public, max-age=300" } }));

export const action = () => methodNotAllowed(["GET"]);
