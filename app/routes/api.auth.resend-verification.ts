import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { sendCodeSchema } from "~/schemas/auth";
import { resendVerification } from "~/services/auth.server";
import { readLanguage } from "~/i18n/i18n.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { email } = await readBody(request, sendCodeSchema);
      await resendVerification(email, context.clientIp, readLanguage(request));
      return ok({ message: "If this address is waiting for verification, a new code has been sent." });
    },
  });
