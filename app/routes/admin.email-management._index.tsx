import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { builtInDesignText, EmailErrorView } from "~/components/admin/email/email-parts";
import type { TemplateFormValues } from "~/components/admin/email/email-forms";
import { TemplateListPage, templateListHref } from "~/components/admin/email/template-list";
import { ApiError, nullIfNotFound, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { templateInputSchema } from "~/schemas/email";
import { EMAIL_MESSAGES as M, variablesIn } from "~/schemas/email-rules";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import {
  createEmailTemplate,
  deleteEmailTemplate,
  EMAIL_ACCESS,
  getEmailTemplate,
  listEmailTemplates,
  listHtmlTemplates,
  sendTemplateTest,
  templateUsers,
  updateEmailTemplate,
} from "~/services/email.server";
import { idOf } from "~/lib/ids";

type Dialog =
  | { kind: "create"; defaults?: TemplateFormValues; from?: string }
  | { kind: "edit"; template: { id: number; values: TemplateFormValues } | null }
  | { kind: "delete"; template: { id: number; name: string; usedBy: string[] } | null }
  | null;

/** The templates tab: list, create and edit in a dialog, delete with a confirmation (decision 007). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, EMAIL_ACCESS);
  const url = new URL(request.url);
  const templates = await listEmailTemplates();
  const modal = url.searchParams.get("modal");
  const templateId = idOf(url.searchParams.get("templateId"));
  const target = templates.find((t) => t.id === templateId) ?? null;
  let dialog: Dialog = null;
  if (modal === "create") {
    // "Use as a new template" on the HTML templates tab starts from a built-in one
    const from = url.searchParams.get("from");
    const builtIn = from ? listHtmlTemplates().find((t) => t.name === from) : undefined;
    const builtInName = builtIn ? builtInDesignText(translatorFor(readLanguage(request)), builtIn).name : "";
    dialog = builtIn
      ? {
          kind: "create",
          from: builtInName,
          defaults: {
            name: builtInName,
            subject: builtIn.subject,
            htmlContent: builtIn.html,
            textContent: builtIn.text,
            variables: {},
          },
        }
      : { kind: "create" };
  } else if (modal === "edit") {
    const template = target ? await nullIfNotFound(getEmailTemplate(target.id)) : null;
    dialog = {
      kind: "edit",
      template: template && {
        id: template.id,
        values: {
          name: template.name,
          subject: template.subject,
          htmlContent: template.htmlContent,
          textContent: template.textContent,
          variables: template.variableValues,
        },
      },
    };
  } else if (modal === "delete") {
    const usedBy = target && target.campaignCount > 0 ? await templateUsers(target.id) : [];
    dialog = { kind: "delete", template: target && { id: target.id, name: target.name, usedBy } };
  }
  return {
    templates: templates.map((t) => ({
      id: t.id,
      name: t.name,
      subject: t.subject,
      variables: [...new Set([...variablesIn(t.subject), ...variablesIn(t.htmlContent), ...variablesIn(t.textContent ?? "")])],
      campaignCount: t.campaignCount,
      createdAt: t.createdAt,
      createdByName: t.createdByName,
    })),
    dialog,
  };
}

type ActionData = { intent: "create" | "update"; result: SubmissionResult<string[]> } | { intent: "delete"; error: string };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(request, async (actor) => {
    // who is asking, before the form is read
    const formData = await request.formData();
    const intent = formData.get("intent");
    const back = templateListHref(new URL(request.url).searchParams);
    // the notices in the reader's language (the services' words are the /api's)
    const language = readLanguage(request);
    const t = translatorFor(language);
    const say = (text: string) => translateMessage(language, text);
    const testSent = (email: string) => t("admin.email.testSent", { email });

    if (intent === "create" || intent === "update") {
      const submission = parseWithZod(formData, { schema: templateInputSchema });
      if (submission.status !== "success") return { intent, result: submission.reply() } satisfies ActionData;
      let template;
      try {
        template =
          intent === "create"
            ? await createEmailTemplate(submission.value, actor)
            : await updateEmailTemplate(Number(formData.get("templateId")), submission.value, actor);
      } catch (error) {
        return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
      }
      const saved = `${say(intent === "create" ? M.templateCreated : M.templateUpdated)}: ${template.name}`;
      if (formData.get("then") !== "test") return redirectWithToast(back, { message: saved });
      // "Save and send a test to me": saved, mailed, and the editor stays open for the next change
      const editor = templateListHref(new URL(request.url).searchParams, { modal: "edit", templateId: String(template.id) });
      try {
        return redirectWithToast(editor, { message: `${saved}. ${testSent(await sendTemplateTest(template.id, actor))}` });
      } catch (error) {
        if (isServiceError(error)) return redirectWithToast(editor, { type: "error", message: `${saved}. ${say(error.message)}` });
        throw error;
      }
    }

    if (intent === "test") {
      try {
        const id = Number(formData.get("templateId"));
        if (!Number.isInteger(id) || id <= 0) throw new ApiError(404, M.templateNotFound);
        return redirectWithToast(back, { message: testSent(await sendTemplateTest(id, actor)) });
      } catch (error) {
        if (isServiceError(error))
          return redirectWithToast(back, {
            type: "error",
            message: error.message.startsWith(M.testFailed)
              ? say(M.testFailed) + say(error.message.slice(M.testFailed.length))
              : `${say(M.testFailed)}: ${say(error.message)}`,
          });
        throw error;
      }
    }

    if (intent === "delete") {
      const id = Number(formData.get("templateId"));
      try {
        if (!Number.isInteger(id) || id <= 0) throw new ApiError(404, M.templateNotFound);
        await deleteEmailTemplate(id, actor);
      } catch (error) {
        if (isServiceError(error)) return { intent, error: `${say(M.deleteFailed)}: ${say(error.message)}` } satisfies ActionData;
        throw error;
      }
      return redirectWithToast(back, { message: say(M.templateDeleted) });
    }

    throw new Response("Unknown action", { status: 400 });
  });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.email.templatesPageTitle", noindex: true });

export default function EmailTemplates() {
  return <TemplateListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
