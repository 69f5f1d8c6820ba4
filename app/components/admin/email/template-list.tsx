/**
 * The e-mail templates tab (/admin/email-management): the list with each template's
 * actions (use in a campaign, edit, send a test, delete), and the create, edit and delete
 * dialogs chosen by the URL (decision 007).
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { AdminList, DeleteLink } from "~/components/admin/admin-list";
import { AdminDialog } from "~/components/admin/dialog";
import { formatDate } from "~/components/admin/format";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n } from "~/i18n/i18n";
import { listAddress } from "~/lib/list-address";
import { EMAIL_MESSAGES as M } from "~/schemas/email-rules";
import { DeleteTemplateForm, TemplateForm, type TemplateFormValues } from "./email-forms";

const PATH = "/admin/email-management";
const DIALOG_PARAMS = ["modal", "templateId", "from"];

/** The tab's address without its dialog, plus `extra`. */
export const templateListHref = (params: URLSearchParams, extra: Record<string, string> = {}) =>
  listAddress(PATH, params, DIALOG_PARAMS, extra);

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type TemplateListData = {
  templates: Array<{
    id: number;
    name: string;
    subject: string;
    variables: string[];
    campaignCount: number;
    createdAt: string;
    createdByName: string | null;
  }>;
  dialog:
    | { kind: "create"; defaults?: TemplateFormValues; from?: string }
    | { kind: "edit"; template: { id: number; values: TemplateFormValues } | null }
    | { kind: "delete"; template: { id: number; name: string; usedBy: string[] } | null }
    | null;
};

/** What the tab's actions answer when they do not redirect. */
type TemplateListActionData = { intent: "create" | "update"; result: SubmissionResult<string[]> } | { intent: "delete"; error: string };

export function TemplateListPage({ data, actionData }: { data: TemplateListData; actionData?: TemplateListActionData }) {
  const { templates, dialog } = data;
  const [searchParams] = useSearchParams();
  const closeHref = templateListHref(searchParams);
  const { t, message } = useI18n();

  return (
    <AdminList
      sectionId="templates-title"
      title={t("admin.email.tabTemplates")}
      count={templates.length}
      toolbar={
        <>
          <Link to={templateListHref(searchParams, { modal: "create" })} className="button" preventScrollReset>
            {t("admin.email.newTemplate")}
          </Link>
          <Link to="/admin/email-management/html-templates" className="button button--secondary">
            {t("admin.email.fromBuiltIn")}
          </Link>
        </>
      }
      items={templates}
      itemKey={(template) => template.id}
      empty={
        <EmptyState title={t("admin.email.noTemplates")}>
          <p>{t("admin.email.noTemplatesHint", { example: "{{userName}}" })}</p>
        </EmptyState>
      }
      columns={[
        {
          header: t("admin.agentForm.name"),
          cell: (template) => (
            <>
              <strong>{template.name}</strong>
              <span className="admin-user-cell__meta">ID {template.id}</span>
            </>
          ),
        },
        { header: t("admin.emailForms.subject"), className: "admin-table__wrap", cell: (template) => template.subject },
        {
          header: t("admin.email.colVariables"),
          className: "admin-table__wrap",
          cell: (template) =>
            template.variables.length ? template.variables.map((name) => <code key={name}>{`{{${name}}}`} </code>) : "—",
        },
        {
          header: t("admin.email.colUsedBy"),
          cell: (template) => (template.campaignCount ? t("admin.email.nCampaigns", { count: template.campaignCount }) : "—"),
        },
        {
          header: t("admin.categoryForm.created"),
          cell: (template) => (
            <>
              {formatDate(template.createdAt)}
              {template.createdByName ? (
                <span className="admin-user-cell__meta">{t("admin.email.by", { name: template.createdByName })}</span>
              ) : null}
            </>
          ),
        },
      ]}
      actions={(template) => (
        <>
          <Link
            to={`/admin/email-management/campaigns?modal=create&templateId=${template.id}`}
            aria-label={t("admin.email.useName", { name: template.name })}
          >
            {t("admin.email.use")}
          </Link>
          <Link
            to={templateListHref(searchParams, { modal: "edit", templateId: String(template.id) })}
            aria-label={t("admin.common.editName", { name: template.name })}
            preventScrollReset
          >
            {t("admin.common.edit")}
          </Link>
          <Form method="post" className="admin-inline-form" preventScrollReset>
            <input type="hidden" name="templateId" value={template.id} />
            <SubmitButton
              name="intent"
              value="test"
              className="button--link"
              pendingText={t("admin.emailForms.sending")}
              aria-label={t("admin.email.testName", { name: template.name })}
            >
              {t("admin.email.test")}
            </SubmitButton>
          </Form>
          <DeleteLink to={templateListHref(searchParams, { modal: "delete", templateId: String(template.id) })} name={template.name} />
        </>
      )}
    >
      {dialog?.kind === "create" ? (
        <AdminDialog
          id="create-template"
          title={dialog.from ? t("admin.email.newFrom", { name: dialog.from }) : t("admin.email.newTemplate")}
          closeTo={closeHref}
          wide
        >
          <TemplateForm
            id="create-template-form"
            intent="create"
            defaults={dialog.defaults}
            lastResult={actionData?.intent === "create" ? actionData.result : undefined}
            submitLabel={t("admin.email.createTemplate")}
            cancelTo={closeHref}
            withTest
          />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "edit" ? (
        <AdminDialog id="edit-template" title={t("admin.email.editTemplate")} closeTo={closeHref} wide>
          {dialog.template ? (
            <TemplateForm
              id={`edit-template-form-${dialog.template.id}`}
              intent="update"
              defaults={dialog.template.values}
              hidden={{ templateId: dialog.template.id }}
              lastResult={actionData?.intent === "update" ? actionData.result : undefined}
              submitLabel={t("admin.email.saveTemplate")}
              cancelTo={closeHref}
              withTest
            />
          ) : (
            <p role="alert">{message(M.templateNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-template" title={t("admin.emailForms.deleteTemplate")} closeTo={closeHref}>
          {dialog.template ? (
            <DeleteTemplateForm
              template={dialog.template}
              usedBy={dialog.template.usedBy}
              error={actionData?.intent === "delete" ? actionData.error : undefined}
              cancelTo={closeHref}
            />
          ) : (
            <p role="alert">{message(M.templateNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}
    </AdminList>
  );
}
