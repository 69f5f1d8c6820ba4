import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ADMIN_MESSAGES } from "~/schemas/admin-users";
import type { PermissionDialogData } from "~/schemas/admin-users-rules";
import { formatDate } from "./format";
import { UserTypeBadge } from "./user-type-badge";
import { useI18n, useT } from "~/i18n/i18n";

/**
 * The permission dialog's content: the user's roles and direct permissions, each with
 * its own small POST form (assign or revoke), so every button works without JavaScript.
 * The forms post to the user's edit route, which redirects back to `returnTo`.
 */
export function PermissionPanel({ data, returnTo }: { data: PermissionDialogData; returnTo: string }) {
  const { t, message } = useI18n();
  const action = `/admin/users/${data.user.id}`;
  const isOrdinary = data.permissionGroups === null;
  return (
    <div className="permission-panel">
      <p>
        <strong>{data.user.username}</strong> <UserTypeBadge userType={data.user.userType} />
      </p>

      <h3>{t("admin.users.roles")}</h3>
      <ul className="permission-list">
        {data.roles.map((role) => (
          <li key={role.id} className="permission-list__item">
            <div className="permission-list__text">
              <code>{role.name}</code>
              <span className="muted">{role.description}</span>
              {role.held ? (
                <span className="admin-badge admin-badge--held">
                  {t("admin.permissions.assigned")}
                  {role.expiresAt ? ` · ${t("admin.permissions.expires", { date: formatDate(role.expiresAt) })}` : ""}
                </span>
              ) : null}
            </div>
            <Form method="post" action={action} preventScrollReset className="permission-list__form">
              <input type="hidden" name="returnTo" value={returnTo} />
              <input type="hidden" name="roleId" value={role.id} />
              {role.held ? (
                <PanelButton
                  intent="revokeRole"
                  field="roleId"
                  id={role.id}
                  secondary
                  label={t("admin.permissions.revokeRole", { name: role.name })}
                >
                  {t("admin.permissions.revoke")}
                </PanelButton>
              ) : (
                <>
                  <label className="permission-list__expiry">
                    <span>{t("admin.permissions.expiresOptional")}</span>
                    <input type="date" name="expiresAt" aria-label={t("admin.permissions.expiryFor", { name: role.name })} />
                  </label>
                  <PanelButton
                    intent="assignRole"
                    field="roleId"
                    id={role.id}
                    label={t("admin.permissions.assignRole", { name: role.name })}
                  >
                    {t("admin.permissions.assign")}
                  </PanelButton>
                </>
              )}
            </Form>
          </li>
        ))}
      </ul>

      <h3>{t("admin.permissions.direct")}</h3>
      {isOrdinary ? (
        <p className="notice">{message(ADMIN_MESSAGES.ordinaryUsersNeedNoPermissions)}</p>
      ) : data.user.userType === "super_admin" ? (
        <p className="notice">{message(ADMIN_MESSAGES.superAdminHoldsAll)}</p>
      ) : null}
      {data.permissionGroups && data.user.userType !== "super_admin"
        ? data.permissionGroups.map((group) => (
            <section key={group.prefix} className="permission-group" aria-label={t("admin.permissions.groupLabel", { group: group.label })}>
              <h4>
                {group.label} <span className="muted">({group.prefix}*)</span>
              </h4>
              <ul className="permission-list">
                {group.permissions.map((permission) => (
                  <li key={permission.id} className="permission-list__item">
                    <div className="permission-list__text">
                      <code>{permission.name}</code>
                      <span className="muted">{permission.description}</span>
                      {permission.held ? <span className="admin-badge admin-badge--held">{t("admin.permissions.granted")}</span> : null}
                    </div>
                    <Form method="post" action={action} preventScrollReset className="permission-list__form">
                      <input type="hidden" name="returnTo" value={returnTo} />
                      <input type="hidden" name="permissionId" value={permission.id} />
                      {permission.held ? (
                        <PanelButton
                          intent="revokePermission"
                          field="permissionId"
                          id={permission.id}
                          secondary
                          label={t("admin.permissions.revokeName", { name: permission.name })}
                        >
                          {t("admin.permissions.revoke")}
                        </PanelButton>
                      ) : (
                        <PanelButton
                          intent="grantPermission"
                          field="permissionId"
                          id={permission.id}
                          label={t("admin.permissions.assignName", { name: permission.name })}
                        >
                          {t("admin.permissions.assign")}
                        </PanelButton>
                      )}
                    </Form>
                  </li>
                ))}
              </ul>
            </section>
          ))
        : null}
    </div>
  );
}

/**
 * A submit button of one row's form. Many rows share an intent, so "pending" also
 * compares the row's id (a plain SubmitButton would mark every row as busy).
 */
function PanelButton({
  intent,
  field,
  id,
  label,
  secondary,
  children,
}: {
  intent: string;
  field: "roleId" | "permissionId";
  id: number;
  label: string;
  secondary?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData?.get(field) === String(id);
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={secondary ? "button button--secondary button--small" : "button button--small"}
      aria-label={label}
      aria-disabled={pending || undefined}
      onClick={(event) => {
        // a second click while sending would post twice
        if (pending) event.preventDefault();
      }}
    >
      {pending ? t("admin.permissions.working") : children}
    </button>
  );
}
