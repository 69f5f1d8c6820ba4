import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { googleTokenSchema } from "~/schemas/auth";
import { loginWithGoogle } from "~/services/auth.server";
import { verifyGoogleIdToken } from "~/services/google-auth.server";
import { issueTokenPair } from "~/services/tokens.server";
import { userJsonWithAccess } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/auth/google {idToken} (also accepted as credential or token). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { idToken } = await readBody(request, googleTokenSchema);
      const identity = await verifyGoogleIdToken(idToken);
      const { user, access } = await loginWithGoogle(identity, context.clientIp);
      return ok({ message: "Login successful", ...(await issueTokenPair(user, access)), user: await userJsonWithAccess(user, access) });
    },
  });
