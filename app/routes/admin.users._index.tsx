import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { UserListPage, userListHref } from "~/components/admin/user-list";
import { ApiError, nullIfNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
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
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

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
      const back = userListHref(new URL(request.url).searchParams);
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

export default function AdminUsers() {
  return <UserListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={ADMIN_MESSAGES.loadFailed} />;
}
