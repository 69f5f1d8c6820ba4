import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { getApiUser } from "~/services/request-user.server";
import { getAccess } from "~/services/permissions.server";
import { verifyEmailSchema } from "~/schemas/auth";
import { verifyEmail } from "~/services/auth.server";
import { signAccessToken } from "~/services/tokens.server";
import { userJsonWithAccess } from "~/services/users.server";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * Verifies an address with its code (an unverified account, or a pending new e-mail).
 * When the caller is that user, the answer carries a new accessToken with the new e-mail.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      // a token that is expired, revoked or of a deleted user is no caller; any other failure goes on
      const caller = await getApiUser(request).catch((error) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
        throw error;
      });
      const { email, code } = await readBody(request, verifyEmailSchema);
      const user = await verifyEmail(email, code);
      const access = await getAccess(user);
      const accessToken = caller?.id === user.id ? await signAccessToken(user, access) : undefined;
      return ok({
        message: "Email verified successfully",
        user: await userJsonWithAccess(user, access),
        ...(accessToken ? { accessToken, token: accessToken } : {}),
      });
    },
  });
