import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { sendRegistrationCodeSchema } from "~/schemas/auth";
import { sendRegistrationCode } from "~/services/auth.server";
import { readLanguage } from "~/i18n/i18n.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { email, ...captcha } = await readBody(request, sendRegistrationCodeSchema);
      await sendRegistrationCode(email, context.clientIp, captcha, undefined, readLanguage(request));
      return ok({ message: "Verification code sent. Please check your email." });
    },
  });
