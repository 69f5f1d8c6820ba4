import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endSession } from "~/services/session.server";
import { redirectWithToast } from "~/lib/toast.server";

/** POST /logout: ends the session and goes home. A GET just goes home (no logout by link). */
export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await endSession(request);
  return redirectWithToast("/", { type: "info", message: "You have been logged out." }, { headers: { "Set-Cookie": cookie } });
}
