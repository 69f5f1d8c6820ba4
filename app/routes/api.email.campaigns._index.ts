import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataByMethod, dataOk, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/lib/permissions.server";
import { campaignInputSchema, campaignListQuerySchema, CAMPAIGNS_PAGE_SIZE, EMAIL_MESSAGES as M } from "~/schemas/email";
import { campaignJson, createEmailCampaign, EMAIL_ACCESS, listEmailCampaigns } from "~/services/email.server";

/** GET /api/email/campaigns?page&status → data.campaigns (newest first) with page, totalPages, totalItems. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    const query = campaignListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const { items, totalItems } = await listEmailCampaigns({ page: query.page, limit: CAMPAIGNS_PAGE_SIZE, status: query.status });
    return dataOk("OK", {
      campaigns: items.map(campaignJson),
      page: query.page,
      totalPages: Math.max(1, Math.ceil(totalItems / CAMPAIGNS_PAGE_SIZE)),
      totalItems,
    });
  });

/** POST /api/email/campaigns → 201 data: campaign (a draft). */
export const action = ({ request }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
      const body = await readBody(request, campaignInputSchema);
      return dataOk(M.campaignCreated, campaignJson(await createEmailCampaign(body, actor)), { status: 201 });
    },
  });
