import type { LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataMethodNotAllowed, dataOk } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { EMAIL_ACCESS, htmlTemplateJson, listHtmlTemplates } from "~/services/email.server";

/** GET /api/email/html-templates → data: [{name, displayName, description, type}]. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    return dataOk("OK", listHtmlTemplates().map(htmlTemplateJson));
  });

export const action = () => dataMethodNotAllowed(["GET"]);
