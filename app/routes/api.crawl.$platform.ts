import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { canAny } from "~/lib/permissions";
import { requireApiUser } from "~/services/permissions.server";
import { parseQuery } from "~/lib/query.server";
import { crawlQuerySchema } from "~/schemas/marketplace";
import { crawledJson, crawlItem } from "~/marketplace/crawl.server";
import { limitMarketplaceFetches } from "~/services/rate-limit.server";

/** The crawl endpoints of docs/product/storefront.md 7: weidian, taobao (Tmall too: platform=tmall) and 1688. */
const ENDPOINTS = { weidian: "weidian", taobao: "taobao", "1688": "1688" } as const;

/**
 * GET /api/crawl/weidian|taobao|1688?itemId= (logged in) → {data: the normalised item:
 * itemId, platform, title, price (CNY), images, skus, description, shopName, originalUrl},
 * ready for POST /api/products/sync-external. 400 without an item id, 404 for an item the
 * marketplace does not have, 502 'Fetch failed…' when it does not answer or answers in an
 * unknown shape. Shoppers are limited to 30 an hour (staff who edit products are not).
 */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const endpoint = ENDPOINTS[params.platform as keyof typeof ENDPOINTS];
    if (!endpoint) throw new ApiError(404, "Unknown marketplace: use weidian, taobao or 1688", "NOT_FOUND");
    const { user, access } = await requireApiUser(request);
    const query = parseQuery(request, crawlQuerySchema);
    const platform = endpoint === "taobao" && query.platform === "tmall" ? "tmall" : endpoint;
    if (!canAny(access, ["product.create", "product.edit"])) await limitMarketplaceFetches(user.id, String(context.clientIp ?? ""));
    return ok({ data: crawledJson(await crawlItem(platform, query.itemId)) });
  });

export const action = () => methodNotAllowed(["GET"]);
