import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { sendCodeSchema } from "~/schemas/auth";
import { sendRegistrationCode } from "~/services/auth.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { email } = await readBody(request, sendCodeSchema);
      await sendRegistrationCode(email, context.clientIp);
      return ok({ message: "Verification code sent. Please check your email." });
    },
  });
