import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { FORM_FIELDS, isTab, SiteSettingsPage, tabOf, type TabId, type ToolResult } from "~/components/admin/site-settings-form";
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
import { readLanguage, translateMessage, translatorFor as serverTranslator } from "~/i18n/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_SETTINGS);
  const entries = await getSettingsForAdmin();
  const values = Object.fromEntries(FORM_FIELDS.map((field) => [field.key, entries[field.key]?.value ?? ""])) as Record<
    SiteSettingKey,
    string
  >;
  return { values };
}

type ActionData =
  | { intent: "save"; tab: TabId; formError: string; fieldErrors: Record<string, string>; values: Record<string, string> }
  | { intent: "sitemap" | "robots"; tab: "tools"; tool: ToolResult };

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const intent = String(formData.get("intent") ?? "save");
      // the results and notices in the reader's language (the services' words are the /api's)
      const language = readLanguage(request);
      const t = serverTranslator(language);
      const say = (text: string) => translateMessage(language, text);

      if (intent === "sitemap") {
        try {
          const report = await generateSitemapReport(actor);
          return {
            intent,
            tab: "tools",
            tool: {
              ok: true,
              title: t("admin.siteSettings.sitemapDone", { urls: report.urlCount, ms: report.durationMs }),
              details: [
                t("admin.siteSettings.sitemapFiles", { count: report.files, bytes: report.bytes }),
                t("admin.siteSettings.sitemapAt", { at: report.generatedAt }),
              ],
            },
          } satisfies ActionData;
        } catch (error) {
          if (error instanceof ForbiddenError) throw error;
          log.error(`[site-settings] sitemap generation failed: ${(error as Error).stack ?? error}`);
          return {
            intent,
            tab: "tools",
            tool: { ok: false, title: say(SETTINGS_MESSAGES.sitemapFailed), details: [String((error as Error).message ?? error)] },
          } satisfies ActionData;
        }
      }

      if (intent === "robots") {
        try {
          const report = await testRobotsTxt(actor);
          const facts = [
            t("admin.siteSettings.robotsAnswered", { url: report.url, status: report.status, ms: report.durationMs }),
            t("admin.siteSettings.robotsCounts", { lines: report.lineCount, groups: report.userAgents.length, rules: report.ruleCount }),
            ...report.sitemaps.map((url) => `Sitemap: ${url}`),
          ];
          return {
            intent,
            tab: "tools",
            tool: report.ok
              ? { ok: true, title: t("admin.siteSettings.robotsDone"), details: [...facts, ...report.warnings] }
              : { ok: false, title: say(SETTINGS_MESSAGES.robotsFailed), details: [...report.problems, ...report.warnings, ...facts] },
          } satisfies ActionData;
        } catch (error) {
          if (error instanceof ForbiddenError) throw error;
          return {
            intent,
            tab: "tools",
            tool: {
              ok: false,
              title: say(SETTINGS_MESSAGES.robotsFailed),
              details: [t("admin.siteSettings.requestFailed", { reason: (error as Error).message })],
            },
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
        const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.field, say(e.message)]));
        const firstKey = Object.keys(fieldErrors)[0];
        return {
          intent: "save",
          tab: firstKey ? tabOf(firstKey) : tab,
          formError: `${say(SETTINGS_MESSAGES.saveFailed)}: ${say(error.message)}`,
          fieldErrors,
          values,
        } satisfies ActionData;
      }
      return redirectWithToast(`/admin/site-settings?tab=${tab}`, { message: say(SETTINGS_MESSAGES.saved) });
    },
    MANAGE_SETTINGS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.siteSettings.pageTitle", noindex: true });

export default function AdminSiteSettings() {
  return <SiteSettingsPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={SETTINGS_MESSAGES.loadFailed} />;
}
