import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";
import { safeRedirect } from "~/lib/http";
import { log } from "~/lib/log.server";
import { startSession } from "~/services/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { MESSAGES } from "~/schemas/auth-rules";
import { loginWithGoogle, sessionMaxAge } from "~/services/auth.server";
import { authenticateWithGoogle, googleEnabled } from "~/services/google-auth.server";
import { translatorOf } from "~/i18n/i18n.server";

function returnPath(request: Request): string {
  const cookie = request.headers.get("Cookie") ?? "";
  const match = /(?:^|;\s*)google_return=([^;]+)/.exec(cookie);
  return safeRedirect(match ? decodeURIComponent(match[1]) : null, "/");
}

/**
 * Cookies to clear after the callback: the return path, and every state cookie of the
 * strategy (it names each one `google_oauth:<uuid>`, one per sign-in attempt).
 */
function clearCookies(request: Request): string[] {
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter((name) => name.startsWith("google_oauth"));
  return ["google_return", ...names].map((name) => `${name}=; Path=/auth/google; HttpOnly; SameSite=Lax; Max-Age=0`);
}

/** GET /auth/google/callback: state is checked first, then the code, then the account. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const failure = (message: string) => {
    const headers = new Headers();
    for (const cookie of clearCookies(request)) headers.append("Set-Cookie", cookie);
    return redirectWithToast("/login", { type: "error", message }, { headers });
  };
  if (!googleEnabled()) return failure(MESSAGES.googleFailed);
  let identity;
  try {
    identity = await authenticateWithGoogle(request);
  } catch (error) {
    if (error instanceof Response) throw error;
    log.warn(`google sign-in refused: ${(error as Error).message}`);
    return failure(MESSAGES.googleFailed);
  }
  try {
    const { user, access } = await loginWithGoogle(identity, context.clientIp);
    const headers = new Headers();
    for (const cookie of clearCookies(request)) headers.append("Set-Cookie", cookie);
    headers.append(
      "Set-Cookie",
      await startSession(request, { userId: user.id, maxAgeSeconds: sessionMaxAge(access), ip: context.clientIp }),
    );
    return redirectWithToast(
      returnPath(request),
      { message: translatorOf(request)("shop.google.welcome", { name: user.username }) },
      { headers },
    );
  } catch (error) {
    if (error instanceof ApiError) return failure(error.message);
    throw error;
  }
}
