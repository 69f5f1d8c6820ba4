import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataByMethod, dataOk, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M, templateInputSchema } from "~/schemas/email";
import { createEmailTemplate, EMAIL_ACCESS, listEmailTemplates, templateJson } from "~/services/email.server";

/** GET /api/email/templates → data.templates. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    const templates = await listEmailTemplates();
    return dataOk("OK", { templates: templates.map(templateJson) });
  });

/** POST /api/email/templates {name, subject, html_content, text_content?, template_variables?} → 201 data: template. */
export const action = ({ request }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const body = await readBody(request, templateInputSchema);
      return dataOk(M.templateCreated, templateJson(await createEmailTemplate(body, actor)), { status: 201 });
    },
  });
