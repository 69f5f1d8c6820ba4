import { ErrorPage } from "~/components/ui/error-page";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ProfileView } from "~/components/storefront/profile-view";
import { ApiError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/services/permissions.server";
import { USER_TYPE_LABELS } from "~/lib/permissions";
import { getSessionUserId } from "~/services/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { confirmEmailFormSchema, passwordFormSchema, profileFormSchema } from "~/schemas/account-forms";
import { MESSAGES } from "~/schemas/auth-rules";
import { confirmEmailChange } from "~/services/auth.server";
import { getsMarketingMail, setMarketingMail } from "~/services/unsubscribe.server";
import { cancelEmailChange, changeOwnPassword, replaceAvatar, updateOwnProfile } from "~/services/users.server";
import { readLanguage, translatorFor } from "~/i18n/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireUser(request);
  return {
    user: {
      username: user.username,
      email: user.email,
      phone: user.phone ?? "",
      avatarUrl: user.avatarUrl,
      emailVerified: user.emailVerified,
      pendingEmail: user.pendingEmail,
      hasPassword: user.hasPassword,
      googleLinked: user.googleLinked,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
      lastLoginAt: user.lastLoginAt,
      lastLoginIp: user.lastLoginIp,
    },
    role: USER_TYPE_LABELS[access.userType],
    userType: access.userType,
    marketingMail: await getsMarketingMail(user.id),
  };
}

type Intent = "profile" | "confirm-email" | "cancel-email" | "avatar" | "password" | "marketing";
type ActionData = { intent: Intent; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const language = readLanguage(request);
  const t = translatorFor(language);

  // the avatar form is the only multipart one
  if ((request.headers.get("Content-Type") ?? "").includes("multipart/form-data")) {
    const fail = (message: string): ActionData => ({
      intent: "avatar",
      result: { status: "error", error: { avatar: [message] } } as SubmissionResult<string[]>,
    });
    try {
      await replaceAvatar(request, user, "avatar", context.clientIp);
    } catch (error) {
      if (error instanceof ApiError) return fail(error.message);
      throw error;
    }
    return redirectWithToast("/profile", { message: t("shop.profile.avatarSaved") });
  }

  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "") as Intent;

  if (intent === "profile") {
    const submission = parseWithZod(formData, { schema: profileFormSchema });
    // a password is never sent back into the page
    const hidden = { hideFields: ["currentPassword"] };
    if (submission.status !== "success") return { intent, result: submission.reply(hidden) } as ActionData;
    try {
      // a new e-mail needs the current password, or the code mailed to the current address (the service asks)
      const result = await updateOwnProfile(user, submission.value, context.clientIp, language);
      return redirectWithToast("/profile", {
        message: result.emailChangePending ? t("shop.profile.savedPending", { email: submission.value.email }) : t("shop.profile.updated"),
      });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error, hidden) } as ActionData;
    }
  }

  if (intent === "confirm-email") {
    const submission = parseWithZod(formData, { schema: confirmEmailFormSchema });
    if (submission.status !== "success") return { intent, result: submission.reply() } as ActionData;
    if (!user.pendingEmail) return redirectWithToast("/profile", { type: "info", message: t("shop.profile.noChangeWaiting") });
    try {
      await confirmEmailChange(user.id, user.pendingEmail, submission.value.code);
      return redirectWithToast("/profile", { message: t("shop.profile.emailChanged") });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error) } as ActionData;
    }
  }

  if (intent === "marketing") {
    const wanted = formData.get("marketing") === "on";
    await setMarketingMail(user, wanted);
    return redirectWithToast("/profile", {
      message: wanted ? t("shop.profile.marketingOn") : t("shop.profile.marketingOff"),
    });
  }

  if (intent === "cancel-email") {
    await cancelEmailChange(user);
    return redirectWithToast("/profile", { type: "info", message: t("shop.profile.changeCancelled") });
  }

  if (intent === "password") {
    const submission = parseWithZod(formData, { schema: passwordFormSchema });
    const hidden = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };
    if (submission.status !== "success") return { intent, result: submission.reply(hidden) } as ActionData;
    if (user.hasPassword && !submission.value.currentPassword) {
      return {
        intent,
        result: submission.reply({ ...hidden, fieldErrors: { currentPassword: [MESSAGES.passwordRequired] } }),
      } as ActionData;
    }
    try {
      const session = await getSessionUserId(request);
      await changeOwnPassword(
        user,
        { currentPassword: submission.value.currentPassword ?? "", newPassword: submission.value.newPassword },
        { ip: context.clientIp, keepSessionHash: session?.sessionHash },
      );
      return redirectWithToast("/profile", { message: t("shop.profile.passwordChanged") });
    } catch (error) {
      return { intent, result: replyWithApiError(submission, error, hidden) } as ActionData;
    }
  }

  throw new Response("Unknown action", { status: 400 });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.profile.title", noindex: true });

export default function Profile() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  // every save changes updatedAt: the forms then start again from the saved values
  return <ProfileView key={data.user.updatedAt} data={data} actionData={actionData} />;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
