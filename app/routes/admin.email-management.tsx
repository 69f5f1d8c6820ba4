import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useRouteError } from "@remix-run/react";
import { EmailErrorView, EmailTabs } from "~/components/admin/email/email-parts";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { EMAIL_ACCESS } from "~/services/email.server";
import { useT } from "~/i18n/i18n";

/**
 * E-mail marketing (docs/product/admin.md "Email marketing"): four tabs, each its own page under
 * this one. Visitors go to the login page (the back office's login prompt); users without
 * access get '权限不足，需要管理员权限'. Each tab checks access again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  return null;
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.email.pageTitle", noindex: true });

export default function EmailManagement() {
  const t = useT();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>{t("admin.nav.email")}</h1>
        <p className="muted">{t("admin.email.intro")}</p>
      </header>
      <EmailTabs />
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
