import { Form, useLocation } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { useT } from "~/i18n/i18n";

type CurrentUser = { id: number; username: string; avatarUrl: string | null; hasAdminAccess: boolean };

/** Login/register links for visitors; a menu (a <details>, so no JS needed) for users. */
export function AccountMenu({ user }: { user: CurrentUser | null }) {
  const location = useLocation();
  const t = useT();
  if (!user) {
    const here = location.pathname + location.search;
    const redirect =
      ["/login", "/register", "/logout"].includes(location.pathname) || here === "/" ? "" : `?redirectTo=${encodeURIComponent(here)}`;
    return (
      <>
        <PageLink to={`/login${redirect}`}>{t("shop.account.logIn")}</PageLink>
        <PageLink to={`/register${redirect}`} className="button button--small account-register">
          {t("shop.account.register")}
        </PageLink>
      </>
    );
  }
  return (
    <details className="account-menu">
      <summary>
        {user.avatarUrl ? <img src={user.avatarUrl} alt="" width={28} height={28} className="avatar avatar--small" /> : null}
        <span>{user.username}</span>
      </summary>
      <div className="account-menu__panel">
        <PageLink to="/profile">{t("shop.account.profile")}</PageLink>
        <PageLink to="/collections">{t("shop.account.collection")}</PageLink>
        {user.hasAdminAccess ? <PageLink to="/admin">{t("shop.account.admin")}</PageLink> : null}
        <Form method="post" action="/logout">
          <button type="submit" className="button--link">
            {t("shop.account.logOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}
