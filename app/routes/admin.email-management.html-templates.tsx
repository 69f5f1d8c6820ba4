import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { builtInDesignText, EmailErrorView } from "~/components/admin/email/email-parts";
import { useT } from "~/i18n/i18n";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { previewInputSchema } from "~/schemas/email";
import { EMAIL_ACCESS, htmlTemplateJson, listHtmlTemplates, previewDefaults, previewHtmlTemplate } from "~/services/email.server";

/**
 * The built-in HTML templates: each previewed with siteName, userName, siteUrl and
 * unsubscribeUrl (a GET form, so it works without JavaScript) in a sandboxed frame that
 * runs nothing, and copied into a new editable template with one click.
 */
const PATH = "/admin/email-management/html-templates";
/** The values a preview fills in (docs/product/admin.md 7). */
const PREVIEW_FIELDS = ["siteName", "userName", "siteUrl", "unsubscribeUrl"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireAdmin(request, EMAIL_ACCESS);
  const url = new URL(request.url);
  const name = url.searchParams.get("preview");
  const templates = listHtmlTemplates().map(htmlTemplateJson);
  const chosen = name ? templates.find((t) => t.name === name) : undefined;
  if (name && !chosen) throw new Response("Built-in template not found", { status: 404, statusText: "Not Found" });
  const parsed = previewInputSchema.safeParse(Object.fromEntries(url.searchParams));
  const input = parsed.success ? parsed.data : {};
  const [defaults, preview] = await Promise.all([previewDefaults(actor), chosen ? previewHtmlTemplate(chosen.name, input, actor) : null]);
  return { templates, preview, defaults };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.emailHtml.pageTitle", noindex: true });

export default function HtmlTemplates() {
  const { templates, preview, defaults } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section aria-labelledby="html-templates-title">
      <div className="admin-page__header">
        <h2 id="html-templates-title">{t("admin.email.tabHtml")}</h2>
        <p className="muted">{t("admin.emailHtml.intro")}</p>
      </div>
      <ul className="email-designs">
        {templates.map((template) => {
          const text = builtInDesignText(t, template);
          return (
            <li
              key={template.name}
              className="admin-card email-designs__item"
              aria-current={preview?.name === template.name ? "true" : undefined}
            >
              <h3>{text.name}</h3>
              <p className="muted">{text.description}</p>
              <div className="admin-row-actions">
                <Link
                  to={`${PATH}?preview=${template.name}#preview`}
                  preventScrollReset
                  aria-label={t("admin.emailHtml.previewName", { name: text.name })}
                >
                  {t("admin.blogPost.preview")}
                </Link>
                <Link
                  to={`/admin/email-management?modal=create&from=${template.name}`}
                  aria-label={t("admin.emailHtml.useName", { name: text.name })}
                >
                  {t("admin.emailHtml.use")}
                </Link>
              </div>
            </li>
          );
        })}
      </ul>

      {preview ? (
        <div id="preview" className="email-preview-panel">
          <h3>
            {t("admin.emailHtml.previewOf", {
              name: builtInDesignText(
                t,
                templates.find((one) => one.name === preview.name) ?? { name: preview.name, displayName: preview.name, description: "" },
              ).name,
            })}
          </h3>
          <Form method="get" action={PATH} className="admin-form-grid email-preview-panel__form" preventScrollReset>
            <input type="hidden" name="preview" value={preview.name} />
            {PREVIEW_FIELDS.map((name) => (
              <div className="field" key={name}>
                <label htmlFor={`preview-${name}`}>{name}</label>
                <input id={`preview-${name}`} name={name} defaultValue={preview.values[name]} placeholder={defaults[name]} />
              </div>
            ))}
            <div className="form-actions">
              <button type="submit" className="button button--secondary">
                {t("admin.emailHtml.update")}
              </button>
            </div>
          </Form>
          <p>
            {t("admin.emailHtml.subject")} <strong data-testid="preview-subject">{preview.subject}</strong>
          </p>
          <iframe title={t("admin.emailHtml.frame")} className="email-preview" sandbox="" srcDoc={preview.html} />
          <details>
            <summary>{t("admin.emailHtml.textPart")}</summary>
            <pre className="email-preview__text">{preview.text}</pre>
          </details>
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <EmailErrorView error={useRouteError()} />;
}
