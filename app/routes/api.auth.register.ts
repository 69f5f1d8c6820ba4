import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { registerSchema } from "~/schemas/auth";
import { completeLogin, register } from "~/services/auth.server";
import { issueTokenPair } from "~/services/tokens.server";
import { userJsonWithAccess } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

/** Registration with a correct code makes a verified account and logs it in. */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const input = await readBody(request, registerSchema);
      const created = await register(input);
      const { user, access } = await completeLogin(created, context.clientIp);
      return ok(
        { message: "Registration successful", user: await userJsonWithAccess(user, access), ...(await issueTokenPair(user, access)) },
        { status: 201 },
      );
    },
  });
