import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { SHARED_WITH_VISITORS } from "~/lib/shared-answers.server";
import { getApiUser } from "~/services/request-user.server";
import { getAccess } from "~/services/permissions.server";
import { productJson } from "~/services/catalogue/common.server";
import { weeklyTrends } from "~/services/catalogue/trends.server";

/**
 * GET /api/products/trends → `{data: {since, qcPhotographed: [{product, count}], collected:
 * [{product, count}], newThisWeek: [product], newThisWeekCount}}`: the last 7 days' most
 * QC-photographed and most collected products (count = photos approved, collections made),
 * the newest of the week's products and how many it listed (at most 1000).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const user = await getApiUser(request);
    const trends = await weeklyTrends(user ? await getAccess(user) : null);
    const ranked = (trend: typeof trends.collected) => trend.map(({ product, count }) => ({ product: productJson(product), count }));
    // the same for every visitor for a minute: shared caches (the server's front) may keep it
    return ok(
      {
        data: {
          since: trends.since,
          qcPhotographed: ranked(trends.qcPhotographed),
          collected: ranked(trends.collected),
          newThisWeek: trends.newThisWeek.map(productJson),
          newThisWeekCount: trends.newCount,
        },
      },
      { headers: user ? undefined : SHARED_WITH_VISITORS },
    );
  });

export const action = () => methodNotAllowed(["GET"]);
