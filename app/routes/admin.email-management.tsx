import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useRouteError } from "@remix-run/react";
import { EmailErrorView, EmailTabs } from "~/components/admin/email/email-parts";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { EMAIL_ACCESS } from "~/services/email.server";

/**
 * E-mail marketing (docs/product/admin.md "Email marketing"): four tabs, each its own page under
 * this one. Visitors go to the login page (the back office's login prompt); users without
 * access get '权限不足，需要管理员权限'. Each tab checks access again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  return null;
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Email marketing · Admin", noindex: true });

export default function EmailManagement() {
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>Email marketing</h1>
        <p className="muted">Templates, campaigns and their sending, and what came of it.</p>
      </header>
      <EmailTabs />
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
