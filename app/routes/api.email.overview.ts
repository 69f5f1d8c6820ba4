import type { LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataMethodNotAllowed, dataOk } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { EMAIL_ACCESS, emailOverview } from "~/services/email.server";

/** GET /api/email/overview → data: the e-mail overview of docs/product/admin.md 3. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    return dataOk("OK", await emailOverview());
  });

export const action = () => dataMethodNotAllowed(["GET"]);
