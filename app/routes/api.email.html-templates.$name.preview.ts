import type { ActionFunctionArgs } from "@remix-run/node";
import { dataByMethod, dataMethodNotAllowed, dataOk, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M, previewInputSchema } from "~/schemas/email";
import { previewHtmlTemplate } from "~/services/email.server";

export const loader = () => dataMethodNotAllowed(["POST"]);

/** POST {siteName?, userName?, siteUrl?, unsubscribeUrl?} → data: {subject, html} (and text). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const body = await readBody(request, previewInputSchema);
      const preview = await previewHtmlTemplate(params.name ?? "", body, actor);
      return dataOk("OK", { subject: preview.subject, html: preview.html, text: preview.text });
    },
  });
