/**
 * The site settings page (/admin/site-settings, docs/product/admin.md 2): five tabs (basic,
 * SEO, analytics, the ad banner, tools) as radio buttons and CSS, so they switch without
 * JavaScript; one form saves every setting, the tools (sitemap, robots.txt test) post
 * their own. The tabs' fields are defined here; the route reads the posted form by them.
 */
import { Form, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ErrorList, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, useT } from "~/i18n/i18n";
import type { SiteSettingKey } from "~/schemas/site-settings";

type FieldDef = {
  key: SiteSettingKey;
  /** catalogue keys (admin.siteSettings.*) */
  label: string;
  kind: "text" | "url" | "textarea" | "code" | "switch";
  hintKey?: string;
};

export type TabId = "basic" | "seo" | "analytics" | "ad" | "tools";

/** The five tabs of docs/product/admin.md 2 and the settings each one edits. */
const TABS: Array<{ id: TabId; label: string; fields: FieldDef[] }> = [
  {
    id: "basic",
    label: "admin.siteSettings.tabBasic",
    fields: [
      { key: "site_name", label: "admin.siteSettings.siteName", kind: "text", hintKey: "admin.siteSettings.siteNameHint" },
      { key: "site_url", label: "admin.siteSettings.siteUrl", kind: "url", hintKey: "admin.siteSettings.siteUrlHint" },
      { key: "site_title", label: "admin.siteSettings.siteTitle", kind: "text", hintKey: "admin.siteSettings.siteTitleHint" },
      { key: "time_zone", label: "admin.siteSettings.timeZone", kind: "text", hintKey: "admin.siteSettings.timeZoneHint" },
    ],
  },
  {
    id: "seo",
    label: "admin.siteSettings.tabSeo",
    fields: [
      {
        key: "site_description",
        label: "admin.siteSettings.siteDescription",
        kind: "textarea",
        hintKey: "admin.siteSettings.siteDescriptionHint",
      },
      { key: "site_keywords", label: "admin.siteSettings.keywords", kind: "text", hintKey: "admin.siteSettings.keywordsHint" },
      { key: "robots_txt", label: "admin.siteSettings.robots", kind: "code", hintKey: "admin.siteSettings.robotsHint" },
    ],
  },
  {
    id: "analytics",
    label: "admin.siteSettings.tabAnalytics",
    fields: [
      {
        key: "google_analytics_code",
        label: "admin.siteSettings.analyticsCode",
        kind: "code",
        hintKey: "admin.siteSettings.analyticsCodeHint",
      },
    ],
  },
  {
    id: "ad",
    label: "admin.siteSettings.tabAd",
    fields: [
      { key: "ad_banner_enabled", label: "admin.siteSettings.adEnabled", kind: "switch" },
      { key: "ad_banner_title", label: "admin.siteSettings.adTitle", kind: "text" },
      { key: "ad_banner_description", label: "admin.siteSettings.adDescription", kind: "textarea" },
      { key: "ad_banner_button_text", label: "admin.siteSettings.adButtonText", kind: "text" },
      { key: "ad_banner_link", label: "admin.siteSettings.adLink", kind: "url", hintKey: "admin.siteSettings.adLinkHint" },
      { key: "ad_banner_button_subtext", label: "admin.siteSettings.adSubtext", kind: "text" },
      { key: "ad_banner_button_subtext_mobile", label: "admin.siteSettings.adSubtextMobile", kind: "text" },
      { key: "ad_banner_logo", label: "admin.siteSettings.adLogo", kind: "text", hintKey: "admin.siteSettings.adLogoHint" },
    ],
  },
  { id: "tools", label: "admin.siteSettings.tabTools", fields: [] },
];

export const FORM_FIELDS = TABS.flatMap((tab) => tab.fields);
export const isTab = (value: unknown): value is TabId => TABS.some((tab) => tab.id === value);
export const tabOf = (key: string): TabId => TABS.find((tab) => tab.fields.some((field) => field.key === key))?.id ?? "basic";

/** What a tool (the sitemap, the robots.txt test) reports. */
export type ToolResult = { ok: boolean; title: string; details: string[] };

/** What the page's forms answer when they do not redirect. */
type SiteSettingsActionData =
  | { intent: "save"; tab: TabId; formError: string; fieldErrors: Record<string, string>; values: Record<string, string> }
  | { intent: "sitemap" | "robots"; tab: "tools"; tool: ToolResult };

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type SiteSettingsData = { values: Record<SiteSettingKey, string> };

export function SiteSettingsPage({ data, actionData }: { data: SiteSettingsData; actionData?: SiteSettingsActionData }) {
  const { values } = data;
  const { t: tr, message } = useI18n();
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
        <h1>{tr("admin.siteSettings.title")}</h1>
        <p className="muted">{tr("admin.siteSettings.intro")}</p>
      </header>

      <Form method="post" id="site-settings-form" className="settings-form" preventScrollReset>
        <FormErrors id="site-settings-errors" errors={saveData ? [message(saveData.formError)] : []} />
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
                {tr(t.label)}
              </label>
            ))}
          </div>

          {TABS.filter((t) => t.id !== "tools").map((t) => (
            <fieldset key={t.id} className={`tabs__panel tabs__panel--${t.id}`}>
              <legend className="visually-hidden">{tr(t.label)}</legend>
              {t.fields.map((field) => (
                <SettingField key={field.key} field={field} value={valueOf(field.key)} error={saveData?.fieldErrors[field.key]} />
              ))}
            </fieldset>
          ))}

          <SiteToolsPanel tool={tool} />
        </div>

        <div className="form-actions settings-form__actions">
          <SubmitButton name="intent" value="save" className="button" pendingText={tr("admin.common.saving")}>
            {tr("admin.siteSettings.save")}
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

/** The Tools tab: generate the sitemap, test robots.txt (buttons of the separate tools form), and what the last one reported. */
function SiteToolsPanel({ tool }: { tool?: ToolResult }) {
  const tr = useT();
  return (
    <section className="tabs__panel tabs__panel--tools" aria-label={tr("admin.siteSettings.tabTools")}>
      <div className="admin-grid">
        <div className="tool">
          <h2>{tr("admin.siteSettings.sitemap")}</h2>
          <p className="muted">{tr("admin.siteSettings.sitemapHelp")}</p>
          <SubmitButton
            form="site-tools-form"
            name="intent"
            value="sitemap"
            className="button button--secondary"
            pendingText={tr("admin.siteSettings.generating")}
          >
            {tr("admin.siteSettings.generateSitemap")}
          </SubmitButton>
          <p>
            <a href="/sitemap.xml" target="_blank" rel="noreferrer">
              {tr("admin.siteSettings.open", { path: "/sitemap.xml" })}
            </a>
          </p>
        </div>
        <div className="tool">
          <h2>robots.txt</h2>
          <p className="muted">{tr("admin.siteSettings.robotsHelp")}</p>
          <SubmitButton
            form="site-tools-form"
            name="intent"
            value="robots"
            className="button button--secondary"
            pendingText={tr("admin.siteSettings.testing")}
          >
            {tr("admin.siteSettings.testRobots")}
          </SubmitButton>
          <p>
            <a href="/robots.txt" target="_blank" rel="noreferrer">
              {tr("admin.siteSettings.open", { path: "/robots.txt" })}
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
  );
}

function SettingField({ field, value, error }: { field: FieldDef; value: string; error?: string }) {
  const { t } = useI18n();
  const id = `setting-${field.key}`;
  const errorId = `${id}-error`;
  const label = t(field.label);
  // the hints are the product's words, in the reader's language: the descriptions stored
  // with the settings (English, from the migration that seeded them) are for the /api
  const hint = field.hintKey ? t(field.hintKey) : undefined;
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
          {label}
        </label>
        <ErrorList id={errorId} errors={error ? [error] : []} />
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
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
