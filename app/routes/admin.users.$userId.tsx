import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { UserEditPage } from "~/components/admin/user-edit";
import { ApiError, isNotFound, orPageNotFound, pageId, pageNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { isSuperAdmin } from "~/lib/permissions";
import { requireAdmin, requireMore, adminAction, type Actor } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { ADMIN_MESSAGES, adminEditUserFormSchema, adminResetPasswordFormSchema, roleAssignmentSchema } from "~/schemas/admin-users";
import {
  assignRoleToUser,
  getPermissionDialogData,
  getUserForAdmin,
  grantPermissionToUser,
  resetPasswordByAdmin,
  revokePermissionFromUser,
  revokeRoleFromUser,
  updateUserByAdmin,
} from "~/services/users.server";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { translatorFor } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";

const parseUserId = (value: string | undefined): number => pageId(value, ADMIN_MESSAGES.userNotFound);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { access } = await requireAdmin(request, { permission: "user.edit" });
  const id = parseUserId(params.userId);
  const { json } = await orPageNotFound(getUserForAdmin(id));
  const canManageAccess = isSuperAdmin(access);
  const wantsDialog = new URL(request.url).searchParams.get("modal") === "permissions";
  return {
    user: {
      id: json.id,
      username: json.username,
      email: json.email,
      phone: json.phone ?? "",
      avatarUrl: json.avatar_url ?? "",
      isAdmin: json.is_admin,
      userType: (json.userType ?? "user") as "super_admin" | "admin" | "user",
      createdAt: json.created_at,
      updatedAt: json.updated_at,
      lastLoginAt: json.last_login_at,
      lastLoginIp: json.last_login_ip,
    },
    canManageAccess,
    // a super admin manages anyone; other user.edit holders only users without admin access
    canManage: canManageAccess || json.userType === "user",
    permissionDialog: canManageAccess && wantsDialog ? await orPageNotFound(getPermissionDialogData(id)) : null,
  };
}

type Intent = "update" | "resetPassword";
type ActionData = { intent: Intent; result: SubmissionResult<string[]> };

const ACCESS_INTENTS = ["assignRole", "revokeRole", "grantPermission", "revokePermission"] as const;
type AccessIntent = (typeof ACCESS_INTENTS)[number];

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      // who is asking, before the form is read
      const formData = await request.formData();
      const intent = String(formData.get("intent") ?? "");
      const id = parseUserId(params.userId);
      const here = `/admin/users/${id}`;
      // the notices in the reader's language (the services' words are the /api's)
      const language = readLanguage(request);
      const say = (text: string) => translateMessage(language, text);

      if ((ACCESS_INTENTS as readonly string[]).includes(intent)) {
        // assigning and revoking roles and permissions: super admins only
        requireMore(actor, { superAdmin: true });
        const returnTo = safeRedirect(formData.get("returnTo"), `${here}?modal=permissions`);
        return changeAccess(intent as AccessIntent, id, formData, actor, returnTo, say);
      }

      if (intent === "update") {
        const submission = parseWithZod(formData, { schema: adminEditUserFormSchema });
        if (submission.status !== "success") return { intent, result: submission.reply() } satisfies ActionData;
        const { confirm: _confirmed, ...changes } = submission.value;
        try {
          const { changed } = await updateUserByAdmin(id, changes, actor);
          return changed
            ? redirectWithToast(here, { message: say(ADMIN_MESSAGES.updated) })
            : redirectWithToast(here, { type: "info", message: say(ADMIN_MESSAGES.noChanges) });
        } catch (error) {
          if (isNotFound(error)) throw pageNotFound(error.message);
          if (isServiceError(error) && !error.errors?.length) {
            // not about one field: '更新用户失败' with the reason
            return {
              intent,
              result: submission.reply({ formErrors: [`${say(ADMIN_MESSAGES.updateFailed)}: ${say(error.message)}`] }),
            } satisfies ActionData;
          }
          return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
        }
      }

      if (intent === "resetPassword") {
        const hidden = ["newPassword", "confirmPassword"];
        const submission = parseWithZod(formData, { schema: adminResetPasswordFormSchema });
        if (submission.status !== "success") return { intent, result: submission.reply({ hideFields: hidden }) } satisfies ActionData;
        try {
          await resetPasswordByAdmin(id, submission.value.newPassword, actor);
        } catch (error) {
          if (isNotFound(error)) throw pageNotFound(error.message);
          if (isServiceError(error)) {
            return {
              intent,
              result: submission.reply({ formErrors: [`${say(ADMIN_MESSAGES.resetFailed)}: ${say(error.message)}`], hideFields: hidden }),
            } satisfies ActionData;
          }
          throw error;
        }
        return redirectWithToast(here, { message: say(ADMIN_MESSAGES.passwordReset) });
      }

      throw new Response("Unknown action", { status: 400 });
    },
    { permission: "user.edit" },
  );

/** One role or permission change, then back to the dialog it came from with a toast. */
async function changeAccess(
  intent: AccessIntent,
  userId: number,
  formData: FormData,
  actor: Actor,
  returnTo: string,
  say: (text: string) => string,
): Promise<Response> {
  const messages = {
    assignRole: [ADMIN_MESSAGES.roleAssigned, ADMIN_MESSAGES.roleAssignFailed],
    revokeRole: [ADMIN_MESSAGES.roleRevoked, ADMIN_MESSAGES.roleRevokeFailed],
    grantPermission: [ADMIN_MESSAGES.permissionGranted, ADMIN_MESSAGES.permissionGrantFailed],
    revokePermission: [ADMIN_MESSAGES.permissionRevoked, ADMIN_MESSAGES.permissionRevokeFailed],
  } as const;
  const [success, failure] = messages[intent];
  try {
    const roleId = Number(formData.get("roleId"));
    const permissionId = Number(formData.get("permissionId"));
    switch (intent) {
      case "assignRole": {
        const parsed = roleAssignmentSchema.safeParse({ expiresAt: formData.get("expiresAt") ?? "" });
        if (!parsed.success) throw new ApiError(400, parsed.error.issues[0].message);
        await assignRoleToUser(userId, roleId, parsed.data.expiresAt, actor);
        break;
      }
      case "revokeRole":
        await revokeRoleFromUser(userId, roleId, actor);
        break;
      case "grantPermission":
        await grantPermissionToUser(userId, permissionId, actor);
        break;
      case "revokePermission":
        await revokePermissionFromUser(userId, permissionId, actor);
        break;
    }
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return redirectWithToast(returnTo, { type: "error", title: say(failure), message: say(error.message) });
  }
  return redirectWithToast(returnTo, { message: say(success) });
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: data ? t("admin.userEdit.pageTitle", { name: data.user.username }) : t("admin.userEdit.pageTitleNone"),
    noindex: true,
  });
};

export default function AdminUserEdit() {
  return <UserEditPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={ADMIN_MESSAGES.loadFailed} />;
}
