import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { requireApiUser } from "~/services/permissions.server";
import { updateProfileSchema } from "~/schemas/auth";
import { signAccessToken } from "~/services/tokens.server";
import { updateOwnProfile, userJsonWithAccess } from "~/services/users.server";
import { readLanguage } from "~/i18n/i18n.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const { user, access } = await requireApiUser(request);
    return ok({ data: await userJsonWithAccess(user, access) });
  });

/**
 * PUT /api/users/me {username, email, phone, avatarUrl, currentPassword, currentEmailCode}.
 * A new e-mail needs the account holder's proof: `currentPassword`, or for an account
 * without one, `currentEmailCode` (the first try without it mails the code to the current
 * address and answers 400 naming the field). It then waits for its code (POST
 * /api/auth/verify-email with the new address); the answer is the same whether or not the
 * address has an account. avatarUrl takes a URL answered by POST
 * /api/upload/avatar to this user (or "" / null to remove the avatar). A new username
 * answers a new accessToken.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  byMethod(request, {
    PUT: async () => {
      const { user, access } = await requireApiUser(request);
      const input = await readBody(request, updateProfileSchema);
      const result = await updateOwnProfile(user, input, context.clientIp, readLanguage(request));
      const data = await userJsonWithAccess(result.user, access);
      const message = result.emailChangePending
        ? `Profile updated. We sent a code to ${result.user.pendingEmail}: verify it to change your email.`
        : "Profile updated successfully";
      const accessToken = result.usernameChanged ? await signAccessToken(result.user, access) : undefined;
      return ok({
        message,
        data,
        emailVerificationRequired: result.emailChangePending,
        ...(accessToken ? { accessToken, token: accessToken } : {}),
      });
    },
  });
