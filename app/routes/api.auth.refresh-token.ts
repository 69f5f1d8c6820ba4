import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, readBody } from "~/lib/api.server";
import { getAccess } from "~/services/permissions.server";
import { refreshTokenSchema } from "~/schemas/auth";
import { rotateRefreshToken } from "~/services/tokens.server";

export const loader = () => methodNotAllowed(["POST"]);

/** A new access token, and a new refresh token (the used one is revoked). */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const { refreshToken } = await readBody(request, refreshTokenSchema);
      const rotated = await rotateRefreshToken(refreshToken, getAccess);
      return ok({ accessToken: rotated.accessToken, token: rotated.accessToken, refreshToken: rotated.refreshToken });
    },
  });
