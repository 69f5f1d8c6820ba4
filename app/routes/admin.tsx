import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminShell } from "~/components/admin/admin-shell";
import { visibleNav } from "~/components/admin/nav";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import adminStyles from "~/styles/admin.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/**
 * The back-office layout. Visitors go to /login?redirectTo=…, users without back-office
 * access get the 403 page below. Each child route checks its own permission again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireAdmin(request);
  return {
    nav: visibleNav(access),
    user: { username: user.username, userType: access.userType, avatarUrl: user.avatarUrl },
  };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Admin", noindex: true });

export default function AdminLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <AdminShell nav={data.nav} user={data.user}>
      <Outlet />
    </AdminShell>
  );
}

/** 401/403/500 of the layout itself: the site chrome stays, the admin frame does not. */
export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
