/**
 * The back office's user list (/admin/users): search, the user-type filter, the table with
 * each user's actions, and the create, batch create, delete and permission dialogs chosen
 * by the URL (decision 007).
 */
import type { SubmissionResult } from "@conform-to/react";
import { Link, useSearchParams } from "@remix-run/react";
import type { z } from "zod";
import { AdminList, AdminSearch, AdminSegments, DeleteLink } from "~/components/admin/admin-list";
import { AdminDialog } from "~/components/admin/dialog";
import { formatDate, formatDateTime } from "~/components/admin/format";
import { PermissionPanel } from "~/components/admin/permission-panel";
import { BatchCreateForm, CreateUserForm, DeleteUserForm, type BatchOutcome } from "~/components/admin/user-forms";
import { UserTypeBadge } from "~/components/admin/user-type-badge";
import { EmptyState } from "~/components/ui/empty-state";
import { useI18n, useT } from "~/i18n/i18n";
import { listAddress, listParams } from "~/lib/list-address";
import type { UserType } from "~/lib/permissions";
import { ADMIN_MESSAGES, type userListQuerySchema, type UserTypeFilterValue } from "~/schemas/admin-users";
import type { PermissionDialogData } from "~/schemas/admin-users-rules";

/** Query parameters that only open a dialog; links and redirects drop them. */
const DIALOG_PARAMS = ["modal", "userId"];

const listSearch = (params: URLSearchParams) => listParams(params, DIALOG_PARAMS);

/** The list's address (search, filter, page) without its dialog, plus `extra`. */
export const userListHref = (params: URLSearchParams, extra: Record<string, string> = {}) =>
  listAddress("/admin/users", params, DIALOG_PARAMS, extra);

/** The dialog the URL opens, with what it shows. */
type UserListDialog =
  | { kind: "create"; roles: Array<{ id: number; name: string }> }
  | { kind: "batch" }
  | { kind: "delete"; user: { id: number; username: string; email: string } | null }
  | { kind: "permissions"; data: PermissionDialogData | null }
  | null;

/** What the list's actions answer when they do not redirect. */
type UserListActionData =
  { intent: "create"; result: SubmissionResult<string[]> } | ({ intent: "batch" } & BatchOutcome) | { intent: "delete"; error: string };

type UserRow = {
  id: number;
  username: string;
  email: string;
  phone: string | null;
  avatarUrl: string | null;
  userType: UserType;
  createdAt: string;
  lastLoginAt: string | null;
  lastLoginIp: string | null;
};

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type UserListData = {
  query: z.infer<typeof userListQuerySchema>;
  list: {
    totalItems: number;
    totalPages: number;
    currentPage: number;
    counts: Record<UserTypeFilterValue, number>;
    items: UserRow[];
  };
  allowed: { create: boolean; edit: boolean; delete: boolean; permissions: boolean };
  currentUserId: number;
  dialog: UserListDialog;
};

const FILTERS: Array<{ value: UserTypeFilterValue; label: string }> = [
  { value: "all", label: "admin.users.filterAll" },
  { value: "admin", label: "admin.users.filterAdmins" },
  { value: "regular", label: "admin.users.filterRegular" },
];

export function UserListPage({ data, actionData }: { data: UserListData; actionData?: UserListActionData }) {
  const { query, list, allowed, dialog, currentUserId } = data;
  const { t, message } = useI18n();
  const [searchParams] = useSearchParams();
  const closeHref = userListHref(searchParams);
  const dialogHref = (extra: Record<string, string>) => userListHref(searchParams, extra);

  return (
    <AdminList
      title={t("admin.users.title")}
      count={list.totalItems}
      intro={t("admin.users.intro")}
      toolbar={
        allowed.create ? (
          <>
            <Link to={dialogHref({ modal: "create" })} className="button" preventScrollReset>
              {t("admin.users.createUser")}
            </Link>
            <Link to={dialogHref({ modal: "batch" })} className="button button--secondary" preventScrollReset>
              {t("admin.users.batchCreate")}
            </Link>
          </>
        ) : null
      }
      filters={
        <div className="admin-filters">
          <AdminSearch
            action="/admin/users"
            id="user-search"
            label={t("admin.users.searchLabel")}
            value={query.q}
            placeholder={t("admin.users.searchPlaceholder")}
            keep={{ userType: query.userType !== "all" ? query.userType : null }}
          />
          <AdminSegments
            label={t("admin.users.filterLabel")}
            segments={FILTERS.map((filter) => {
              const params = new URLSearchParams();
              if (query.q) params.set("q", query.q);
              if (filter.value !== "all") params.set("userType", filter.value);
              return {
                key: filter.value,
                href: params.toString() ? `/admin/users?${params}` : "/admin/users",
                current: query.userType === filter.value,
                label: (
                  <>
                    {t(filter.label)} <span className="admin-badge admin-badge--count">{list.counts[filter.value]}</span>
                  </>
                ),
              };
            })}
          />
        </div>
      }
      items={list.items}
      itemKey={(user) => user.id}
      empty={<EmptyState title={query.q ? t("admin.users.noMatch", { query: query.q }) : t("admin.users.empty")} />}
      columns={[
        { header: t("admin.users.colUser"), cell: (user) => <UserCell user={user} isYou={user.id === currentUserId} /> },
        { header: t("admin.users.email"), className: "admin-table__email", cell: (user) => <EmailAddress email={user.email} /> },
        { header: t("admin.users.phone"), cell: (user) => user.phone ?? "—" },
        { header: t("admin.users.colType"), cell: (user) => <UserTypeBadge userType={user.userType} /> },
        { header: t("admin.users.colRegistered"), cell: (user) => formatDate(user.createdAt) },
        {
          header: t("admin.users.colLastLogin"),
          cell: (user) => (
            <>
              {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : message(ADMIN_MESSAGES.neverLoggedIn)}
              {user.lastLoginIp ? <span className="admin-user-cell__meta">IP {user.lastLoginIp}</span> : null}
            </>
          ),
        },
      ]}
      actions={(user) => (
        <>
          {allowed.permissions ? (
            <Link
              to={dialogHref({ modal: "permissions", userId: String(user.id) })}
              aria-label={t("admin.users.permissionsOf", { name: user.username })}
              preventScrollReset
            >
              {t("admin.users.permissions")}
            </Link>
          ) : null}
          {allowed.edit ? (
            <Link to={`/admin/users/${user.id}`} aria-label={t("admin.common.editName", { name: user.username })}>
              {t("admin.common.edit")}
            </Link>
          ) : null}
          {/* not offered where the server would refuse: one's own account, and (for admins) other admins */}
          {allowed.delete && user.id !== currentUserId && (allowed.permissions || user.userType === "user") ? (
            <DeleteLink to={dialogHref({ modal: "delete", userId: String(user.id) })} name={user.username} />
          ) : null}
        </>
      )}
      paging={{
        currentPage: list.currentPage,
        totalPages: list.totalPages,
        searchParams: listSearch(searchParams),
        label: t("admin.users.pages"),
      }}
    >
      {dialog?.kind === "create" ? (
        <AdminDialog id="create-user" title={t("admin.users.createUser")} closeTo={closeHref}>
          <CreateUserForm roles={dialog.roles} lastResult={actionData?.intent === "create" ? actionData.result : undefined} />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "batch" ? (
        <AdminDialog id="batch-create" title={t("admin.users.batchTitle")} closeTo={closeHref} wide>
          <BatchCreateForm actionData={actionData?.intent === "batch" ? actionData : undefined} />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-user" title={t("admin.users.deleteUser")} closeTo={closeHref}>
          {dialog.user ? (
            <DeleteUserForm
              user={dialog.user}
              error={actionData?.intent === "delete" ? actionData.error : undefined}
              cancelTo={closeHref}
            />
          ) : (
            <p role="alert">{message(ADMIN_MESSAGES.userNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}

      {dialog?.kind === "permissions" ? (
        <AdminDialog id="user-permissions" title={t("admin.users.managePermissions")} closeTo={closeHref} wide>
          {dialog.data ? (
            <PermissionPanel data={dialog.data} returnTo={`/admin/users?${searchParams.toString()}`} />
          ) : (
            <p role="alert">{message(ADMIN_MESSAGES.userNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}
    </AdminList>
  );
}

/** A row's user: the avatar (or its initial), the name ("you" for one's own), the id and phone. */
function UserCell({ user, isYou }: { user: UserRow; isYou: boolean }) {
  const t = useT();
  return (
    <div className="admin-user-cell">
      {user.avatarUrl ? (
        <img src={user.avatarUrl} alt="" width={36} height={36} className="admin-avatar" loading="lazy" />
      ) : (
        <span className="admin-avatar admin-avatar--placeholder" aria-hidden="true">
          {user.username.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div>
        <strong>{user.username}</strong>
        {isYou ? <span className="muted"> {t("admin.users.you")}</span> : null}
        <span className="admin-user-cell__meta">
          ID {user.id}
          {user.phone ? ` · ${user.phone}` : ""}
        </span>
      </div>
    </div>
  );
}

/** An e-mail address that may wrap before its "@" and nowhere else. */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
