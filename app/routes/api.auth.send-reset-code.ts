import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { sendCodeSchema } from "~/schemas/auth";
import { sendResetCode } from "~/services/auth.server";
import { readLanguage } from "~/i18n/i18n.server";

export const loader = () => methodNotAllowed(["POST"]);

/** The answer is the same whether or not the address has an account. */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { email } = await readBody(request, sendCodeSchema);
      await sendResetCode(email, context.clientIp, readLanguage(request));
      return ok({ message: "If an account exists for this email, a password reset code has been sent." });
    },
  });
