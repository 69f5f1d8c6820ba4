import type { ActionFunctionArgs } from "@remix-run/node";
import { dataByMethod, dataMethodNotAllowed, dataOk, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { campaignJson, EMAIL_ACCESS, unscheduleEmailCampaign } from "~/services/email.server";

export const loader = () => dataMethodNotAllowed(["POST"]);

/** POST: a scheduled (or recurring) campaign back to draft, its next start cancelled; others 400. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
      return dataOk(M.campaignUnscheduled, campaignJson(await unscheduleEmailCampaign(parseId(params.id))));
    },
  });
