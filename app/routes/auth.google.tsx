import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/http";
import { redirectWithToast } from "~/lib/toast.server";
import { MESSAGES } from "~/schemas/auth-rules";
import { authenticateWithGoogle, googleEnabled } from "~/services/google-auth.server";

export async function loader() {
  return redirect("/login");
}

/** POST /auth/google: off to Google (state + PKCE kept in a short-lived cookie). */
export async function action({ request }: ActionFunctionArgs) {
  if (!googleEnabled()) return redirectWithToast("/login", { type: "error", message: MESSAGES.googleFailed });
  const formData = await request.formData();
  const redirectTo = safeRedirect(formData.get("redirectTo"), "/");
  try {
    await authenticateWithGoogle(new Request(new URL("/auth/google", request.url), { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      // remember where to go back to after the callback
      const headers = new Headers(thrown.headers);
      headers.append(
        "Set-Cookie",
        `google_return=${encodeURIComponent(redirectTo)}; Path=/auth/google; HttpOnly; SameSite=Lax; Max-Age=600`,
      );
      return new Response(null, { status: 302, headers });
    }
    throw thrown;
  }
  return redirect("/login");
}
