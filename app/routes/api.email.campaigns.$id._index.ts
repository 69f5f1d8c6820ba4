import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataByMethod, dataOk, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { campaignInputSchema, EMAIL_MESSAGES as M, overStored } from "~/schemas/email";
import {
  campaignInputOf,
  campaignJson,
  deleteEmailCampaign,
  EMAIL_ACCESS,
  editableEmailCampaign,
  emailCampaignDetail,
  runJson,
  updateEmailCampaign,
} from "~/services/email.server";

/** GET /api/email/campaigns/:id → data: campaign with its runs. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    const detail = await emailCampaignDetail(parseId(params.id));
    return dataOk("OK", { ...campaignJson(detail.campaign), runs: detail.runs.map(runJson) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    /**
     * Only a draft: otherwise 400 '只有草稿状态的活动可以编辑', whatever the body. Fields the
     * body leaves out keep their stored values.
     */
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const id = parseId(params.id);
      const current = await editableEmailCampaign(id);
      const body = await readBody(request, overStored(campaignInputSchema, campaignInputOf(current)));
      return dataOk(M.campaignUpdated, campaignJson(await updateEmailCampaign(id, body, actor)));
    },
    /** Anything but a sending campaign (400). */
    DELETE: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      await deleteEmailCampaign(parseId(params.id), actor);
      return dataOk(M.campaignDeleted, null);
    },
  });
