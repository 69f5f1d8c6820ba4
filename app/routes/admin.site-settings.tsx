import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { ErrorList, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { isServiceError, ForbiddenError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { log } from "~/lib/log.server";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { SETTINGS_MESSAGES } from "~/schemas/admin-site-settings";
import type { SiteSettingKey } from "~/schemas/site-settings";
import {
  generateSitemapReport,
  getSettingsForAdmin,
  saveSettingsByAdmin,
  testRobotsTxt,
  MANAGE_SETTINGS,
} from "~/services/site-tools.server";

type FieldDef = {
  key: SiteSettingKey;
  label: string;
  kind: "text" | "url" | "textarea" | "code" | "switch";
  hint?: string;
};

type TabId = "basic" | "seo" | "analytics" | "ad" | "tools";

/** The five tabs of docs/product/admin.md 2 and the settings each one edits. */
const TABS: Array<{ id: TabId; label: string; fields: FieldDef[] }> = [
  {
    id: "basic",
    label: "Basic",
    fields: [
      { key: "site_name", label: "Site name", kind: "text" },
      { key: "site_url", label: "Site URL", kind: "url", hint: "A full URL such as https://example.com (empty = the server's PUBLIC_URL)" },
      { key: "site_title", label: "Site title", kind: "text", hint: "The title of the home page" },
    ],
  },
  {
    id: "seo",
    label: "SEO",
    fields: [
      { key: "site_description", label: "Site description", kind: "textarea" },
      { key: "site_keywords", label: "Keywords", kind: "text", hint: "Comma separated" },
      { key: "robots_txt", label: "robots.txt content", kind: "code", hint: "Empty = the built-in default, which points at /sitemap.xml" },
    ],
  },
  {
    id: "analytics",
    label: "Analytics",
    fields: [{ key: "google_analytics_code", label: "Analytics tracking code", kind: "code", hint: "Inserted into every page" }],
  },
  {
    id: "ad",
    label: "Advertisement",
    fields: [
      { key: "ad_banner_enabled", label: "Show the advertisement banner", kind: "switch" },
      { key: "ad_banner_title", label: "Banner title", kind: "text" },
      { key: "ad_banner_description", label: "Banner description", kind: "textarea" },
      { key: "ad_banner_button_text", label: "Button text", kind: "text" },
      { key: "ad_banner_link", label: "Button link", kind: "url", hint: "A full URL starting with http:// or https://" },
      { key: "ad_banner_button_subtext", label: "Button subtext (desktop)", kind: "text" },
      { key: "ad_banner_button_subtext_mobile", label: "Button subtext (mobile)", kind: "text" },
      { key: "ad_banner_logo", label: "Logo image path", kind: "text", hint: "/uploads/… or a full URL" },
    ],
  },
  { id: "tools", label: "Tools", fields: [] },
];

const FORM_FIELDS = TABS.flatMap((tab) => tab.fields);
const isTab = (value: unknown): value is TabId => TABS.some((tab) => tab.id === value);
const tabOf = (key: string): TabId => TABS.find((tab) => tab.fields.some((field) => field.key === key))?.id ?? "basic";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_SETTINGS);
  const entries = await getSettingsForAdmin();
  const values = Object.fromEntries(FORM_FIELDS.map((field) => [field.key, entries[field.key]?.value ?? ""])) as Record<
    SiteSettingKey,
    string
  >;
  const descriptions = Object.fromEntries(FORM_FIELDS.map((field) => [field.key, entries[field.key]?.description ?? ""]));
  return { values, descriptions };
}

export type ToolResult = { ok: boolean; title: string; details: string[] };
type ActionData =
  | { intent: "save"; tab: TabId; formError: string; fieldErrors: Record<string, string>; values: Record<string, string> }
  | { intent: "sitemap" | "robots"; tab: "tools"; tool: ToolResult };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = String(formData.get("intent") ?? "save");

      if (intent === "sitemap") {
        try {
          const report = await generateSitemapReport(actor);
          return {
            intent,
            tab: "tools",
            tool: {
              ok: true,
              title: `网站地图生成成功: ${report.urlCount} URLs in ${report.durationMs} ms`,
              details: [
                `${report.files} ${report.files === 1 ? "file" : "files"}, ${report.bytes} bytes`,
                `generated at ${report.generatedAt}`,
              ],
            },
          } satisfies ActionData;
        } catch (error) {
          if (error instanceof ForbiddenError) throw error;
          log.error(`[site-settings] sitemap generation failed: ${(error as Error).stack ?? error}`);
          return {
            intent,
            tab: "tools",
            tool: { ok: false, title: SETTINGS_MESSAGES.sitemapFailed, details: [String((error as Error).message ?? error)] },
          } satisfies ActionData;
        }
      }

      if (intent === "robots") {
        try {
          const report = await testRobotsTxt(actor);
          const facts = [
            `${report.url} answered HTTP ${report.status} in ${report.durationMs} ms`,
            `${report.lineCount} directives, ${report.userAgents.length} User-agent group(s), ${report.ruleCount} Allow/Disallow rule(s)`,
            ...report.sitemaps.map((url) => `Sitemap: ${url}`),
          ];
          return {
            intent,
            tab: "tools",
            tool: report.ok
              ? { ok: true, title: "robots.txt 测试成功", details: [...facts, ...report.warnings] }
              : { ok: false, title: SETTINGS_MESSAGES.robotsFailed, details: [...report.problems, ...report.warnings, ...facts] },
          } satisfies ActionData;
        } catch (error) {
          if (error instanceof ForbiddenError) throw error;
          return {
            intent,
            tab: "tools",
            tool: { ok: false, title: SETTINGS_MESSAGES.robotsFailed, details: [`the request failed: ${(error as Error).message}`] },
          } satisfies ActionData;
        }
      }

      const tab = isTab(formData.get("tab")) ? (formData.get("tab") as TabId) : "basic";
      const values: Record<string, string> = {};
      for (const field of FORM_FIELDS) {
        values[field.key] = field.kind === "switch" ? String(formData.get(field.key) === "on") : String(formData.get(field.key) ?? "");
      }
      try {
        await saveSettingsByAdmin(values, actor);
      } catch (error) {
        if (!isServiceError(error)) throw error;
        const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.field, e.message]));
        const firstKey = Object.keys(fieldErrors)[0];
        return {
          intent: "save",
          tab: firstKey ? tabOf(firstKey) : tab,
          formError: `${SETTINGS_MESSAGES.saveFailed}: ${error.message}`,
          fieldErrors,
          values,
        } satisfies ActionData;
      }
      return redirectWithToast(`/admin/site-settings?tab=${tab}`, { message: SETTINGS_MESSAGES.saved });
    },
    MANAGE_SETTINGS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Site settings · Admin", noindex: true });

export default function AdminSiteSettings() {
  const { values, descriptions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const [tab, setTab] = useState<TabId>(actionData?.tab ?? (isTab(requested) ? requested : "basic"));
  useEffect(() => {
    if (actionData?.tab) setTab(actionData.tab);
  }, [actionData]);

  const saveData = actionData?.intent === "save" ? actionData : undefined;
  const tool: ToolResult | undefined = actionData && actionData.intent !== "save" ? actionData.tool : undefined;
  const valueOf = (key: SiteSettingKey) => saveData?.values[key] ?? values[key];

  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>Site settings</h1>
        <p className="muted">Name, address, SEO, analytics and the advertisement banner of the storefront.</p>
      </header>

      <Form method="post" id="site-settings-form" className="settings-form" preventScrollReset>
        <FormErrors id="site-settings-errors" errors={saveData ? [saveData.formError] : []} />
        <div className="tabs">
          {TABS.map((t) => (
            <input
              key={t.id}
              type="radio"
              name="tab"
              value={t.id}
              id={`tab-${t.id}`}
              className={`tabs__radio tabs__radio--${t.id} visually-hidden`}
              checked={tab === t.id}
              onChange={() => setTab(t.id)}
            />
          ))}
          <div className="tabs__list" role="presentation">
            {TABS.map((t) => (
              <label key={t.id} htmlFor={`tab-${t.id}`} className={`tabs__tab tabs__tab--${t.id}`}>
                {t.label}
              </label>
            ))}
          </div>

          {TABS.filter((t) => t.id !== "tools").map((t) => (
            <fieldset key={t.id} className={`tabs__panel tabs__panel--${t.id}`}>
              <legend className="visually-hidden">{t.label}</legend>
              {t.fields.map((field) => (
                <SettingField
                  key={field.key}
                  field={field}
                  value={valueOf(field.key)}
                  description={descriptions[field.key]}
                  error={saveData?.fieldErrors[field.key]}
                />
              ))}
            </fieldset>
          ))}

          <section className="tabs__panel tabs__panel--tools" aria-label="Tools">
            <div className="admin-grid">
              <div className="tool">
                <h2>Sitemap</h2>
                <p className="muted">Builds the sitemap from the current data, exactly as /sitemap.xml serves it.</p>
                <SubmitButton
                  form="site-tools-form"
                  name="intent"
                  value="sitemap"
                  className="button button--secondary"
                  pendingText="Generating…"
                >
                  Generate sitemap
                </SubmitButton>
                <p>
                  <a href="/sitemap.xml" target="_blank" rel="noreferrer">
                    Open /sitemap.xml
                  </a>
                </p>
              </div>
              <div className="tool">
                <h2>robots.txt</h2>
                <p className="muted">Fetches the live /robots.txt and checks every line.</p>
                <SubmitButton
                  form="site-tools-form"
                  name="intent"
                  value="robots"
                  className="button button--secondary"
                  pendingText="Testing…"
                >
                  Test robots.txt
                </SubmitButton>
                <p>
                  <a href="/robots.txt" target="_blank" rel="noreferrer">
                    Open /robots.txt
                  </a>
                </p>
              </div>
            </div>
            {tool ? (
              <div className={`notice ${tool.ok ? "notice--success" : "notice--error"}`} role={tool.ok ? "status" : "alert"}>
                <p>
                  <strong>{tool.title}</strong>
                </p>
                <ul>
                  {tool.details.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>
        </div>

        <div className="form-actions settings-form__actions">
          <SubmitButton name="intent" value="save" className="button" pendingText="Saving…">
            Save settings
          </SubmitButton>
        </div>
      </Form>

      {/* the tools post separately: their buttons sit in the Tools tab with form="site-tools-form" */}
      <Form method="post" id="site-tools-form" preventScrollReset>
        <input type="hidden" name="tab" value="tools" />
      </Form>
    </div>
  );
}

function SettingField({ field, value, description, error }: { field: FieldDef; value: string; description?: string; error?: string }) {
  const id = `setting-${field.key}`;
  const errorId = `${id}-error`;
  // the stored description helps only when it says more than the label
  const hint =
    field.hint ??
    (field.kind !== "switch" && description && description.toLowerCase() !== field.label.toLowerCase() ? description : undefined);
  const common = {
    id,
    name: field.key,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [hint ? `${id}-hint` : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined,
  };
  if (field.kind === "switch") {
    return (
      <div className="field">
        <label className="admin-check admin-switch">
          <input type="checkbox" {...common} defaultChecked={value === "true"} />
          {field.label}
        </label>
        <ErrorList id={errorId} errors={error ? [error] : []} />
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {field.kind === "textarea" || field.kind === "code" ? (
        <textarea
          {...common}
          defaultValue={value}
          rows={field.kind === "code" ? 8 : 3}
          className={field.kind === "code" ? "admin-textarea--mono" : undefined}
        />
      ) : (
        <input {...common} type={field.kind === "url" ? "url" : "text"} defaultValue={value} />
      )}
      {hint ? (
        <span className="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <ErrorList id={errorId} errors={error ? [error] : []} />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={SETTINGS_MESSAGES.loadFailed} />;
}
