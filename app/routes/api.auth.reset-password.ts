import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { resetPasswordSchema } from "~/schemas/auth";
import { resetPassword } from "~/services/auth.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      await resetPassword(await readBody(request, resetPasswordSchema));
      return ok({ message: "Password reset successful. Please log in with your new password." });
    },
  });
