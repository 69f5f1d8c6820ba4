import { Form, NavLink, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import type { UserType } from "~/lib/permissions";
import type { AdminNavItem } from "./nav";
import { useUserTypeLabel } from "./user-type-badge";
import { useT } from "~/i18n/i18n";

const DRAWER_ID = "admin-drawer";

/**
 * The back-office frame: the sidebar (navigation, return to site, the user, logout) and
 * the page. Below 800 px the sidebar is a drawer opened by a checkbox and its labels,
 * so it works without JavaScript; with JavaScript it also closes after a navigation.
 */
export function AdminShell({
  nav,
  user,
  children,
}: {
  nav: AdminNavItem[];
  user: { username: string; userType: UserType; avatarUrl: string | null };
  children: ReactNode;
}) {
  const t = useT();
  const userTypeLabel = useUserTypeLabel();
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const navigation = useNavigation();
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname]);

  return (
    <div className="admin-shell">
      <input
        ref={toggle}
        type="checkbox"
        id={DRAWER_ID}
        className="admin-drawer-toggle visually-hidden"
        aria-label={t("admin.shell.showMenu")}
      />
      <div className="admin-topbar">
        <label htmlFor={DRAWER_ID} className="button button--secondary admin-topbar__menu">
          <span aria-hidden="true">☰</span> {t("admin.shell.menu")}
        </label>
        <span className="admin-topbar__title">{t("admin.shell.admin")}</span>
      </div>
      <aside className="admin-sidebar" aria-label={t("admin.shell.sidebar")}>
        <div className="admin-sidebar__head">
          <span className="admin-sidebar__title">{t("admin.shell.backOffice")}</span>
          <label htmlFor={DRAWER_ID} className="admin-sidebar__close">
            {t("admin.shell.closeMenu")}
          </label>
        </div>
        <nav aria-label={t("admin.shell.navigation")}>
          <ul className="admin-nav">
            {nav.map((item) =>
              "children" in item ? (
                <li key={item.id} className="admin-nav__group">
                  <span className="admin-nav__group-label">{t(item.label)}</span>
                  <ul>
                    {item.children.map((child) => (
                      <li key={child.id}>
                        <NavLink to={child.to} end={child.end} prefetch="intent">
                          {t(child.label)}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                </li>
              ) : (
                <li key={item.id}>
                  <NavLink to={item.to} end={item.end} prefetch="intent">
                    {t(item.label)}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>
        <div className="admin-sidebar__account">
          <a href="/" className="admin-sidebar__back">
            ← {t("admin.shell.returnToSite")}
          </a>
          <div className="admin-sidebar__user">
            {user.avatarUrl ? <img src={user.avatarUrl} alt="" width={32} height={32} className="admin-avatar" /> : null}
            <div>
              <strong className="admin-sidebar__username">{user.username}</strong>
              <span className={`admin-badge admin-badge--${user.userType}`}>{userTypeLabel(user.userType)}</span>
            </div>
          </div>
          <Form method="post" action="/logout" reloadDocument>
            <button type="submit" className="button button--secondary admin-sidebar__logout">
              {t("admin.shell.logOut")}
            </button>
          </Form>
        </div>
      </aside>
      {/* a tap beside the open menu closes it (no JavaScript); hidden from assistive
          technology, which has the menu's own close button (aria-hidden on the wrapper: HTML
          does not allow it on a label) */}
      <div className="admin-backdrop" aria-hidden="true">
        {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- a backdrop, not a field's label */}
        <label htmlFor={DRAWER_ID} className="admin-backdrop__tap" />
      </div>
      <div className="admin-content">
        {navigation.state === "loading" ? (
          <p className="admin-loading" role="status">
            {t("admin.common.loading")}
          </p>
        ) : null}
        {children}
      </div>
    </div>
  );
}
