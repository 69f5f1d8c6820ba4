import { Form, Link, useLocation } from "@remix-run/react";

type CurrentUser = { id: number; username: string; avatarUrl: string | null; hasAdminAccess: boolean };

/** Login/register links for visitors; a menu (a <details>, so no JS needed) for users. */
export function AccountMenu({ user }: { user: CurrentUser | null }) {
  const location = useLocation();
  if (!user) {
    const here = location.pathname + location.search;
    const redirect =
      ["/login", "/register", "/logout"].includes(location.pathname) || here === "/" ? "" : `?redirectTo=${encodeURIComponent(here)}`;
    return (
      <>
        <Link to={`/login${redirect}`}>Log in</Link>
        <Link to={`/register${redirect}`} className="button button--small">
          Register
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
        <Link to="/profile">My profile</Link>
        <Link to="/collections">My collection</Link>
        {user.hasAdminAccess ? <Link to="/admin">Admin</Link> : null}
        <Form method="post" action="/logout">
          <button type="submit" className="button--link">
            Log out
          </button>
        </Form>
      </div>
    </details>
  );
}
