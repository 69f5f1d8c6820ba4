import { Form, Link, useLocation } from "@remix-run/react";
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
        <Link to={`/login${redirect}`}>{t("shop.account.logIn")}</Link>
        <Link to={`/register${redirect}`} className="button button--small account-register">
          {t("shop.account.register")}
        </Link>
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
        <Link to="/profile">{t("shop.account.profile")}</Link>
        <Link to="/collections">{t("shop.account.collection")}</Link>
        {user.hasAdminAccess ? <Link to="/admin">{t("shop.account.admin")}</Link> : null}
        <Form method="post" action="/logout">
          <button type="submit" className="button--link">
            {t("shop.account.logOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}
