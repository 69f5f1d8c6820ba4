/**
 * The back office's user page (/admin/users/:userId): the user's type, their account
 * facts, the edit and reset-password forms (or why they cannot be managed here), and the
 * permission dialog chosen by the URL (?modal=permissions).
 */
import type { SubmissionResult } from "@conform-to/react";
import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { AdminDialog } from "~/components/admin/dialog";
import { formatDateTime } from "~/components/admin/format";
import { PermissionPanel } from "~/components/admin/permission-panel";
import { EditUserForm, ResetPasswordForm } from "~/components/admin/user-forms";
import { UserTypeBadge } from "~/components/admin/user-type-badge";
import { useI18n } from "~/i18n/i18n";
import type { UserType } from "~/lib/permissions";
import { ADMIN_MESSAGES } from "~/schemas/admin-users";
import type { PermissionDialogData } from "~/schemas/admin-users-rules";

/** What the page's forms answer when they do not redirect. */
type UserEditActionData = { intent: "update" | "resetPassword"; result: SubmissionResult<string[]> };

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type UserEditData = {
  user: {
    id: number;
    username: string;
    email: string;
    phone: string;
    avatarUrl: string;
    isAdmin: boolean;
    userType: UserType;
    createdAt: string;
    updatedAt: string;
    lastLoginAt: string | null;
    lastLoginIp: string | null;
  };
  /** a super admin: administrator access, roles and permissions */
  canManageAccess: boolean;
  /** the edit and reset-password forms */
  canManage: boolean;
  permissionDialog: PermissionDialogData | null;
};

export function UserEditPage({ data, actionData }: { data: UserEditData; actionData?: UserEditActionData }) {
  const { user, canManageAccess, canManage, permissionDialog } = data;
  const { t, message } = useI18n();
  const [searchParams] = useSearchParams();
  // a new location (the redirect after a save) restarts the forms from the saved values
  const { key: locationKey } = useLocation();
  const here = `/admin/users/${user.id}`;

  return (
    <div className="admin-page">
      <p className="admin-breadcrumb">
        <Link to="/admin/users">← {t("admin.userEdit.back")}</Link>
      </p>
      <header className="admin-page__header admin-page__header--row">
        <div>
          <h1>
            {t("admin.userEdit.title", { name: user.username })} <UserTypeBadge userType={user.userType} />
          </h1>
          <p>
            {user.isAdmin || user.userType !== "user" ? (
              <span className="admin-badge admin-badge--admin">{t("admin.userEdit.administrator")}</span>
            ) : (
              <span className="admin-badge admin-badge--user">{t("admin.userEdit.normalUser")}</span>
            )}
          </p>
        </div>
        {canManageAccess ? (
          <Link to={`${here}?modal=permissions`} className="button button--secondary" preventScrollReset>
            {t("admin.users.managePermissions")}
          </Link>
        ) : null}
      </header>

      <div className="admin-grid admin-grid--edit">
        <AccountFacts user={user} />

        {canManage ? (
          <>
            <EditUserForm
              key={`edit-${locationKey}`}
              user={user}
              canSetAdmin={canManageAccess}
              lastResult={actionData?.intent === "update" ? actionData.result : undefined}
            />
            <ResetPasswordForm
              key={`reset-${locationKey}`}
              lastResult={actionData?.intent === "resetPassword" ? actionData.result : undefined}
            />
          </>
        ) : (
          <section className="card" aria-labelledby="locked-title">
            <h2 id="locked-title">{t("admin.users.profile")}</h2>
            <p className="notice notice--info">{message(ADMIN_MESSAGES.cannotManageAdmin)}.</p>
          </section>
        )}
      </div>

      <p>
        <Link to="/admin/users">← {t("admin.userEdit.back")}</Link>
      </p>

      {permissionDialog ? (
        <AdminDialog id="user-permissions" title={t("admin.users.managePermissions")} closeTo={here} wide>
          <PermissionPanel data={permissionDialog} returnTo={`${here}?${searchParams.toString()}`} />
        </AdminDialog>
      ) : null}
    </div>
  );
}

/** The account's facts: id, when it was registered, last changed and last logged in, and from where. */
function AccountFacts({ user }: { user: UserEditData["user"] }) {
  const { t, message } = useI18n();
  return (
    <section className="card" aria-labelledby="account-facts">
      <h2 id="account-facts">{t("admin.userEdit.account")}</h2>
      <dl className="admin-facts">
        <dt>ID</dt>
        <dd>{user.id}</dd>
        <dt>{t("admin.users.colRegistered")}</dt>
        <dd>{formatDateTime(user.createdAt)}</dd>
        <dt>{t("admin.userEdit.lastUpdate")}</dt>
        <dd>{formatDateTime(user.updatedAt)}</dd>
        <dt>{t("admin.users.colLastLogin")}</dt>
        <dd>{formatDateTime(user.lastLoginAt, message(ADMIN_MESSAGES.neverLoggedIn))}</dd>
        <dt>{t("admin.userEdit.loginIp")}</dt>
        <dd>{user.lastLoginIp ?? "—"}</dd>
      </dl>
    </section>
  );
}
