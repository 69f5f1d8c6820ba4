import type { ActionFunctionArgs } from "@remix-run/node";
import { dataByMethod, dataMethodNotAllowed, dataOk, parseId } from "~/lib/api.server";
import { requireApiAdmin } from "~/services/permissions.server";
import { EMAIL_MESSAGES as M } from "~/schemas/email";
import { sendTemplateTest } from "~/services/email.server";

export const loader = () => dataMethodNotAllowed(["POST"]);

/** POST: the saved template, as a recipient gets it, to the caller's own address now (docs/runtime.md). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  dataByMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, M.noToken);
      const email = await sendTemplateTest(parseId(params.id), actor);
      return dataOk(M.testSent(email), { email });
    },
  });
