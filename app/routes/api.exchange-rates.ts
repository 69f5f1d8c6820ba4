import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { specRatesView } from "~/services/currency.server";

/** GET /api/exchange-rates → {data: {rates: {USD: 6.64, ...} (CNY per unit; the spec's eight), mode, lastUpdated}}. */
export const loader = () =>
  apiRoute(async () => ok({ data: await specRatesView() }, { headers: { "Cache-Control": "public, max-age=300" } }));

export const action = () => methodNotAllowed(["GET"]);
