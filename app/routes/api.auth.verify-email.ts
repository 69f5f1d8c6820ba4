import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { verifyEmailSchema } from "~/schemas/auth";
import { verifyEmail } from "~/services/auth.server";
import { userJsonWithAccess } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { email, code } = await readBody(request, verifyEmailSchema);
      const user = await verifyEmail(email, code);
      return ok({ message: "Email verified successfully", user: await userJsonWithAccess(user) });
    },
  });
