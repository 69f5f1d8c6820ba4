import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { loginSchema } from "~/schemas/auth";
import { login } from "~/services/auth.server";
import { issueTokenPair } from "~/services/tokens.server";
import { userJsonWithAccess } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const input = await readBody(request, loginSchema);
      const { user, access } = await login(input, context.clientIp);
      return ok({ message: "Login successful", ...(await issueTokenPair(user, access)), user: await userJsonWithAccess(user, access) });
    },
  });
