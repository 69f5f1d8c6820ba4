import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminDialog } from "~/components/admin/dialog";
import { formatDate, formatDateTime } from "~/components/admin/format";
import { PermissionPanel } from "~/components/admin/permission-panel";
import { BatchCreateForm, CreateUserForm, DeleteUserForm } from "~/components/admin/user-forms";
import { UserTypeBadge } from "~/components/admin/user-type-badge";
import { EmptyState } from "~/components/ui/empty-state";
import { ApiError, nullIfNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { listAddress, listParams } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { can, isSuperAdmin, type UserType } from "~/lib/permissions";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  ADMIN_MESSAGES,
  adminBatchFormSchema,
  adminCreateUserSchema,
  parseBatchLines,
  USER_MANAGEMENT_PERMISSIONS,
  USERS_PAGE_SIZE,
  userListQuerySchema,
  type UserTypeFilterValue,
} from "~/schemas/admin-users";
import {
  batchCreateUsers,
  createUserByAdmin,
  deleteUserByAdmin,
  getPermissionDialogData,
  getUserForAdmin,
  listAllRoles,
  listUsersForAdmin,
} from "~/services/users.server";
import type { PermissionDialogData } from "~/schemas/admin-users-rules";
import { idOf } from "~/lib/ids";
import { AdminList, AdminSearch, AdminSegments, DeleteLink } from "~/components/admin/admin-list";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n } from "~/i18n/i18n";

/** Query parameters that only open a dialog; links and redirects drop them. */
const DIALOG_PARAMS = ["modal", "userId"];

const listSearch = (params: URLSearchParams) => listParams(params, DIALOG_PARAMS);
const listHref = (params: URLSearchParams, extra: Record<string, string> = {}) => listAddress("/admin/users", params, DIALOG_PARAMS, extra);

type Dialog =
  | { kind: "create"; roles: Array<{ id: number; name: string }> }
  | { kind: "batch" }
  | { kind: "delete"; user: { id: number; username: string; email: string } | null }
  | { kind: "permissions"; data: PermissionDialogData | null }
  | null;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireAdmin(request, { anyOf: USER_MANAGEMENT_PERMISSIONS });
  const url = new URL(request.url);
  const query = userListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listUsersForAdmin({ q: query.q, userType: query.userType, page: query.page, limit: USERS_PAGE_SIZE });
  const allowed = {
    create: can(access, "user.create"),
    edit: can(access, "user.edit"),
    delete: can(access, "user.delete"),
    permissions: isSuperAdmin(access),
  };

  const modal = url.searchParams.get("modal");
  const targetId = idOf(url.searchParams.get("userId"));
  let dialog: Dialog = null;
  if (modal === "create" && allowed.create) {
    // roles are the super admin's to hand out; others create ordinary users
    const roles = allowed.permissions ? (await listAllRoles()).filter((role) => role.name === "admin" || role.name === "super_admin") : [];
    dialog = { kind: "create", roles: roles.map(({ id, name }) => ({ id, name })) };
  } else if (modal === "batch" && allowed.create) {
    dialog = { kind: "batch" };
  } else if (modal === "delete" && allowed.delete) {
    const target = targetId !== null ? await nullIfNotFound(getUserForAdmin(targetId)) : null;
    dialog = { kind: "delete", user: target ? { id: target.user.id, username: target.user.username, email: target.user.email } : null };
  } else if (modal === "permissions" && allowed.permissions) {
    dialog = { kind: "permissions", data: targetId !== null ? await nullIfNotFound(getPermissionDialogData(targetId)) : null };
  }

  return {
    query,
    list: {
      totalItems: list.totalItems,
      totalPages: list.totalPages,
      currentPage: list.currentPage,
      counts: list.counts,
      items: list.items.map((item) => ({
        id: item.id,
        username: item.username,
        email: item.email,
        phone: item.phone,
        avatarUrl: item.avatar_url,
        userType: (item.userType ?? "user") as UserType,
        createdAt: item.created_at,
        lastLoginAt: item.last_login_at,
        lastLoginIp: item.last_login_ip,
      })),
    },
    allowed,
    currentUserId: user.id,
    dialog,
  };
}

type ActionData =
  | { intent: "create"; result: SubmissionResult<string[]> }
  | {
      intent: "batch";
      result: SubmissionResult<string[]>;
      summary?: string;
      lineErrors?: Array<{ line: number; username: string; error: string }>;
    }
  | { intent: "delete"; error: string };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      // who is asking, before the form is read
      const formData = await request.formData();
      const intent = formData.get("intent");
      const back = listHref(new URL(request.url).searchParams);
      // the notices in the reader's language (the services' words are the /api's)
      const language = readLanguage(request);
      const t = translatorFor(language);
      const say = (text: string) => translateMessage(language, text);

      if (intent === "create") {
        const submission = parseWithZod(formData, { schema: adminCreateUserSchema });
        if (submission.status !== "success") {
          return { intent, result: submission.reply({ hideFields: ["password"] }) } satisfies ActionData;
        }
        try {
          const created = await createUserByAdmin(submission.value, actor);
          return redirectWithToast(back, { message: `${say(ADMIN_MESSAGES.created)}: ${created.username}` });
        } catch (error) {
          return { intent, result: replyWithApiError(submission, error, { hideFields: ["password"] }) } satisfies ActionData;
        }
      }

      if (intent === "batch") {
        const submission = parseWithZod(formData, { schema: adminBatchFormSchema });
        if (submission.status !== "success") return { intent, result: submission.reply() } satisfies ActionData;
        const lines = submission.value.lines
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean);
        let outcome: Awaited<ReturnType<typeof batchCreateUsers>>;
        try {
          outcome = await batchCreateUsers(parseBatchLines(submission.value.lines), actor);
        } catch (error) {
          // too many lines (or none): said on the field, what was typed kept
          if (isServiceError(error) && error.status === 400) {
            return { intent, result: submission.reply({ fieldErrors: { lines: [say(error.message)] } }) } satisfies ActionData;
          }
          throw error;
        }
        const summary = t("admin.users.batchSummary", { success: outcome.success, failed: outcome.failed });
        if (outcome.failed === 0) return redirectWithToast(back, { message: summary });
        return {
          intent,
          // the lines hold passwords: never send them back
          result: submission.reply({ resetForm: true }),
          summary,
          lineErrors: outcome.errors.map(({ index, error }) => ({
            line: index + 1,
            username: lines[index]?.split(",")[0]?.trim() ?? "",
            error: say(error),
          })),
        } satisfies ActionData;
      }

      if (intent === "delete") {
        const userId = Number(formData.get("userId"));
        try {
          if (!Number.isInteger(userId) || userId <= 0) throw new ApiError(404, ADMIN_MESSAGES.userNotFound);
          await deleteUserByAdmin(userId, actor);
        } catch (error) {
          if (isServiceError(error)) return { intent, error: say(error.message || ADMIN_MESSAGES.deleteFailed) } satisfies ActionData;
          throw error;
        }
        return redirectWithToast(back, { message: say(ADMIN_MESSAGES.deleted) });
      }

      // assign/revoke forms post to /admin/users/:userId
      throw new Response("Unknown action", { status: 400 });
    },
    { anyOf: USER_MANAGEMENT_PERMISSIONS },
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.users.pageTitle", noindex: true });

const FILTERS: Array<{ value: UserTypeFilterValue; label: string }> = [
  { value: "all", label: "admin.users.filterAll" },
  { value: "admin", label: "admin.users.filterAdmins" },
  { value: "regular", label: "admin.users.filterRegular" },
];

export default function AdminUsers() {
  const { query, list, allowed, dialog, currentUserId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, message } = useI18n();
  const [searchParams] = useSearchParams();
  const closeHref = listHref(searchParams);
  const dialogHref = (extra: Record<string, string>) => listHref(searchParams, extra);

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
        {
          header: t("admin.users.colUser"),
          cell: (user) => (
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
                {user.id === currentUserId ? <span className="muted"> {t("admin.users.you")}</span> : null}
                <span className="admin-user-cell__meta">
                  ID {user.id}
                  {user.phone ? ` · ${user.phone}` : ""}
                </span>
              </div>
            </div>
          ),
        },
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

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={ADMIN_MESSAGES.loadFailed} />;
}
