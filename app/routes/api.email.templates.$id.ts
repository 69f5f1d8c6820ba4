import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { dataApiRoute, dataByMethod, dataOk, parseId, readBody } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M, overStored, templateInputSchema } from "~/schemas/email";
import {
  deleteEmailTemplate,
  EMAIL_ACCESS,
  getEmailTemplate,
  templateInputOf,
  templateJson,
  updateEmailTemplate,
} from "~/services/email.server";

/** GET /api/email/templates/:id → data: template. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  dataApiRoute(async () => {
    await requireApiAdmin(request, EMAIL_ACCESS, M.noToken);
    return dataOk("OK", templateJson(await getEmailTemplate(parseId(params.id))));
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    /** name, subject, html_content, text_content, template_variables: fields left out keep their stored values. */
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const id = parseId(params.id);
      const current = await getEmailTemplate(id);
      const body = await readBody(request, overStored(templateInputSchema, templateInputOf(current)));
      return dataOk(M.templateUpdated, templateJson(await updateEmailTemplate(id, body, actor)));
    },
    /** 409 TEMPLATE_IN_USE while a campaign uses it. */
    DELETE: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      await deleteEmailTemplate(parseId(params.id), actor);
      return dataOk(M.templateDeleted, null);
    },
  });
