/**
 * Flash messages (toasts) that survive one redirect and work without JavaScript:
 * stored in a signed cookie, read and cleared by the root loader.
 */
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "./env.server";
import { answerNotStored } from "./request-scope.server";

export const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "info"]),
  title: z.string().optional(),
  message: z.string(),
  /** lines under the message, one each (the files an upload refused, say) */
  details: z.array(z.string()).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = Omit<Toast, "id" | "type"> & { type?: Toast["type"] };

const TOAST_KEY = "toast";

type ToastSessionData = Record<string, never>;
type ToastFlashData = { toast: Toast };

let storage: ReturnType<typeof createCookieSessionStorage<ToastSessionData, ToastFlashData>> | undefined;
function toastStorage() {
  const env = getEnv();
  storage ??= createCookieSessionStorage<ToastSessionData, ToastFlashData>({
    cookie: {
      name: "toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secrets: [env.SESSION_SECRET],
      secure: env.PUBLIC_URL.startsWith("https://"),
    },
  });
  return storage;
}

/** Headers that set a toast for the next page view. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const session = await toastStorage().getSession();
  const toast: Toast = { id: crypto.randomUUID(), type: input.type ?? "success", ...input };
  session.flash(TOAST_KEY, toast);
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

/** Post/Redirect/Get with a toast. */
export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const cookie of (await createToastHeaders(toast)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the pending toast. Returns the header that clears it, if any. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  if (!session.has(TOAST_KEY)) return { toast: null, headers: null };
  // a page showing one visitor's message is theirs (docs/decisions/035-kept-only-when-the-answer-says-so.md)
  answerNotStored();
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({ "Set-Cookie": await toastStorage().destroySession(session) }),
  };
}
