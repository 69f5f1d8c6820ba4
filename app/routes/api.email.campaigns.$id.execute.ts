import type { ActionFunctionArgs } from "@remix-run/node";
import { dataByMethod, dataMethodNotAllowed, dataOk, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { campaignJson, executeEmailCampaign } from "~/services/email.server";

export const loader = () => dataMethodNotAllowed(["POST"]);

/** POST: a draft sends now (immediate) or is scheduled; a paused campaign resumes; others 400. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const { campaign, message } = await executeEmailCampaign(parseId(params.id), actor);
      return dataOk(message, campaignJson(campaign));
    },
  });
