/**
 * E-mail templates: reusable subject, HTML and text with their variables (docs/decisions/018-email-campaigns.md).
 */
import { sql, type Selectable } from "kysely";
import type { DB } from "~/lib/db.server";
import type { EmailTemplatesTable } from "../../../db/schema";

export type EmailTemplate = {
  id: number;
  name: string;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  /** the template's own variables as text, for filling in */
  variables: Record<string, string>;
  /** the same as they were given (numbers and booleans kept), for the API */
  variableValues: Record<string, VariableValue>;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
  /** campaigns that use it (a template in use cannot be deleted) */
  campaignCount: number;
};

export type VariableValue = string | number | boolean | null;

function parseVariableValues(text: string): Record<string, VariableValue> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as VariableValue) : String(v),
        ]),
      );
    }
  } catch {
    // stored by this app as JSON: an unreadable value reads as none
  }
  return {};
}

/** A variable's text in a message: null is empty. */
export function parseVariables(text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(parseVariableValues(text)).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

type TemplateRow = Selectable<EmailTemplatesTable> & { created_by_name: string | null; campaign_count: number };

function toTemplate(row: TemplateRow): EmailTemplate {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    htmlContent: row.html_content,
    textContent: row.text_content,
    variables: parseVariables(row.template_variables),
    variableValues: parseVariableValues(row.template_variables),
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    campaignCount: row.campaign_count,
  };
}

function templateQuery(db: DB) {
  return db
    .selectFrom("email_templates as t")
    .leftJoin("users as u", "u.id", "t.created_by")
    .selectAll("t")
    .select((eb) => [
      "u.username as created_by_name",
      eb
        .selectFrom("email_campaigns as c")
        .whereRef("c.template_id", "=", "t.id")
        .select(eb.fn.countAll<number>().as("n"))
        .as("campaign_count"),
    ]);
}

export async function listTemplates(db: DB): Promise<EmailTemplate[]> {
  const rows = await templateQuery(db).orderBy("t.id", "desc").execute();
  return rows.map((row) => toTemplate(row as TemplateRow));
}

export async function findTemplate(db: DB, id: number): Promise<EmailTemplate | undefined> {
  const row = await templateQuery(db).where("t.id", "=", id).executeTakeFirst();
  return row && toTemplate(row as TemplateRow);
}

export type TemplateValues = {
  name: string;
  subject: string;
  htmlContent: string;
  textContent: string | null;
  variables: Record<string, VariableValue>;
};

export async function insertTemplate(db: DB, values: TemplateValues & { createdBy: number | null }): Promise<number> {
  const row = await db
    .insertInto("email_templates")
    .values({
      name: values.name,
      subject: values.subject,
      html_content: values.htmlContent,
      text_content: values.textContent,
      template_variables: JSON.stringify(values.variables),
      created_by: values.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(db: DB, id: number, values: TemplateValues): Promise<boolean> {
  const result = await db
    .updateTable("email_templates")
    .set({
      name: values.name,
      subject: values.subject,
      html_content: values.htmlContent,
      text_content: values.textContent,
      template_variables: JSON.stringify(values.variables),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTemplate(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("email_templates").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function campaignNamesUsingTemplate(db: DB, templateId: number): Promise<string[]> {
  const rows = await db.selectFrom("email_campaigns").select("name").where("template_id", "=", templateId).orderBy("id").execute();
  return rows.map((row) => row.name);
}

export async function countTemplates(db: DB): Promise<{ total: number; active: number }> {
  const row = await db
    .selectFrom("email_templates as t")
    .select((eb) => [
      eb.fn.countAll<number>().as("total"),
      eb.fn.sum<number>(sql`CASE WHEN EXISTS (SELECT 1 FROM email_campaigns c WHERE c.template_id = t.id) THEN 1 ELSE 0 END`).as("active"),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active ?? 0) };
}
