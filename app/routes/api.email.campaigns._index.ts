import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataByMethod, dataOk, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { campaignInputSchema, campaignListQuerySchema, EMAIL_MESSAGES as M } from "~/schemas/email";
import { campaignJson, createEmailCampaign, EMAIL_ACCESS, listEmailCampaigns } from "~/services/email.server";

/** GET /api/email/campaigns?page&limit&status → data.campaigns (newest first) with page, totalPages, totalItems and the spec's pagination fields. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    const query = campaignListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const { items, totalItems } = await listEmailCampaigns({ page: query.page, limit: query.limit, status: query.status });
    const totalPages = Math.max(1, Math.ceil(totalItems / query.limit));
    return dataOk("OK", {
      campaigns: items.map(campaignJson),
      page: query.page,
      totalPages,
      totalItems,
      // the spec's pagination fields (docs/product/admin.md 3 "Pagination")
      currentPage: query.page,
      hasNextPage: query.page < totalPages,
      hasPrevPage: query.page > 1,
      limit: query.limit,
    });
  });

/** POST /api/email/campaigns → 201 data: campaign (a draft). */
export const action = ({ request }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const body = await readBody(request, campaignInputSchema);
      return dataOk(M.campaignCreated, campaignJson(await createEmailCampaign(body, actor)), { status: 201 });
    },
  });
