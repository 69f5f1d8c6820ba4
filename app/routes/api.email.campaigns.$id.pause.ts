import type { ActionFunctionArgs } from "@remix-run/node";
import { dataByMethod, dataMethodNotAllowed, dataOk, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { campaignJson, pauseEmailCampaign } from "~/services/email.server";

export const loader = () => dataMethodNotAllowed(["POST"]);

/** POST: a sending campaign pauses (messages in flight finish); others 400. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      return dataOk(M.campaignPaused, campaignJson(await pauseEmailCampaign(parseId(params.id), actor)));
    },
  });
