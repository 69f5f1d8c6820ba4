import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "~/services/permissions.server";

/** /admin/users/:userId/edit is the other spelling of the edit screen (docs/product/admin.md 2). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, { permission: "user.edit" });
  const search = new URL(request.url).search;
  return redirect(`/admin/users/${encodeURIComponent(params.userId ?? "")}${search}`);
}
