import type { LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataMethodNotAllowed, dataOk, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { EMAIL_ACCESS, emailCampaignStats } from "~/services/email.server";

/** GET → data: {sent, failed, pending} (plus skipped, uncertain, total), over every run. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    return dataOk("OK", await emailCampaignStats(parseId(params.id)));
  });

export const action = () => dataMethodNotAllowed(["GET"]);
