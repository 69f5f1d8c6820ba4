import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { getSessionUserId } from "~/services/session.server";
import { requireApiUser } from "~/services/permissions.server";
import { changePasswordSchema } from "~/schemas/auth";
import { issueTokenPair } from "~/services/tokens.server";
import { changeOwnPassword } from "~/services/users.server";

export const loader = () => methodNotAllowed(["PUT"]);

/** Changes the password; every other session ends and new tokens are answered. */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const { user, access } = await requireApiUser(request);
      const input = await readBody(request, changePasswordSchema);
      const session = await getSessionUserId(request);
      const updated = await changeOwnPassword(user, input, { ip: context.clientIp, keepSessionHash: session?.sessionHash });
      return ok({ message: "Password changed successfully", ...(await issueTokenPair(updated, access)) });
    },
  });
