import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { isServiceError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { agentTemplateFor, buildAgentLink } from "~/marketplace/links";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { PLATFORM_LABELS, PLATFORMS } from "~/schemas/catalogue-rules";
import { testLink } from "~/marketplace/agent-links.server";
import { allAgents, deleteAgentByAdmin, moveAgent, setAgentEnabled, MANAGE_AGENTS } from "~/services/agents.server";
import { AdminConfirmDialog, AdminList, DeleteLink } from "~/components/admin/admin-list";
import { EmptyState } from "~/components/ui/empty-state";
import { platformLabel } from "~/components/admin/labels";
import { readLanguage, translateMessage, translatorOf } from "~/i18n/i18n.server";
import { useT, type Translate } from "~/i18n/i18n";
import { Emphasis, MARK } from "~/components/admin/emphasis";

const SAMPLE = { weidian: "7231234567", taobao: "623456789012", tmall: "623456789012", "1688": "645678901234" } as const;

/**
 * /admin/agents (super admin): the shopping agents product pages link to ("Buy via"), in
 * order; move, show or hide, edit, delete (with a confirmation step). Their URL formats
 * drift, so they are data (docs/decisions/020-marketplace-links.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_AGENTS);
  const url = new URL(request.url);
  const agents = await allAgents();
  const confirmId = Number(url.searchParams.get("agentId"));
  const confirm = url.searchParams.get("modal") === "delete" ? (agents.find((agent) => agent.id === confirmId) ?? null) : null;
  return {
    agents: agents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      enabled: agent.enabled,
      referral: agent.referralParam && agent.referralCode ? `${agent.referralParam}=${agent.referralCode}` : null,
      samples: PLATFORMS.flatMap((platform) => {
        const template = agentTemplateFor(agent.templates, platform);
        return template
          ? [{ platform, label: PLATFORM_LABELS[platform], url: buildAgentLink(template, { platform, itemId: SAMPLE[platform] }) }]
          : [];
      }),
    })),
    confirm: confirm ? { id: confirm.id, name: confirm.name } : null,
    test: await linkTestView(url.searchParams.get("test") ?? "", translatorOf(request)),
  };
}

/** The "test a link" box's answer, in words. */
async function linkTestView(raw: string, t: Translate) {
  const text = raw.trim().slice(0, 2000);
  if (!text) return null;
  const { reading, agent } = await testLink(text);
  if (reading.kind === "item")
    return {
      text,
      ok: true,
      message: t("admin.agents.testItem", { platform: PLATFORM_LABELS[reading.platform], itemId: reading.itemId }),
      how: agent
        ? t("admin.agents.testReadWith", { agent })
        : reading.via === "link"
          ? t("admin.agents.testOwnLink")
          : t("admin.agents.testCarried"),
    };
  if (reading.kind === "number")
    return {
      text,
      ok: true,
      message: t("admin.agents.testItemId", { itemId: reading.itemId }),
      how: t("admin.agents.testBareNumber", { candidates: reading.candidates.join(t("admin.agents.or")) }),
    };
  if (reading.kind === "short") return { text, ok: true, message: t("admin.agents.testShort"), how: t("admin.agents.testShortHow") };
  return {
    text,
    ok: false,
    message: t("admin.agents.testNotItem"),
    how: t("admin.agents.testNotItemHow"),
  };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      // who is asking, before the form is read
      const formData = await request.formData();
      const intent = String(formData.get("intent") ?? "");
      const id = Number(formData.get("agentId"));
      const language = readLanguage(request);
      const t = translatorOf(request);
      try {
        if (intent === "up" || intent === "down") {
          await moveAgent(id, intent, actor);
          return redirectWithToast("/admin/agents", { message: t("admin.agents.orderSaved") });
        }
        if (intent === "enable" || intent === "disable") {
          const saved = await setAgentEnabled(id, intent === "enable", actor);
          return redirectWithToast("/admin/agents", {
            message: saved.enabled ? t("admin.agents.nowShown", { name: saved.name }) : t("admin.agents.nowHidden", { name: saved.name }),
          });
        }
        if (intent === "delete") {
          const agent = await deleteAgentByAdmin(id, actor);
          return redirectWithToast("/admin/agents", { message: t("admin.agents.deleted", { name: agent.name }) });
        }
      } catch (error) {
        if (isServiceError(error) && error.status < 500)
          return redirectWithToast("/admin/agents", { type: "error", message: translateMessage(language, error.message) });
        throw error;
      }
      throw new Response("Unknown action", { status: 400 });
    },
    MANAGE_AGENTS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.agents.pageTitle", noindex: true });

export default function AgentsPage() {
  const { agents, confirm, test } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <AdminList
      title={t("admin.nav.agents")}
      count={agents.length}
      intro={t("admin.agents.intro")}
      toolbar={
        <Link to="/admin/agents/new" className="button">
          {t("admin.agents.add")}
        </Link>
      }
      filters={
        <section className="card admin-link-test" aria-labelledby="link-test-title">
          <h2 id="link-test-title">{t("admin.agents.testTitle")}</h2>
          <Form method="get" action="/admin/agents" className="site-search">
            <label htmlFor="link-test" className="visually-hidden">
              {t("admin.agents.testLabel")}
            </label>
            <input id="link-test" type="text" name="test" defaultValue={test?.text ?? ""} placeholder={t("admin.agents.testPlaceholder")} />
            <button type="submit">{t("admin.agents.test")}</button>
          </Form>
          {test ? (
            <p className={test.ok ? "notice notice--success" : "notice notice--warning"} role="status">
              <strong>{test.message}</strong>: {test.how}.
            </p>
          ) : null}
        </section>
      }
      items={agents}
      itemKey={(agent) => agent.id}
      empty={
        <EmptyState title={t("admin.agents.empty")}>
          <p>
            <Link to="/admin/agents/new">{t("admin.agents.addFirst")}</Link>
            {t("admin.agents.addFirstAfter")}
          </p>
        </EmptyState>
      }
      columns={[
        {
          header: t("admin.agents.agent"),
          cell: (agent) => (
            <>
              <strong>{agent.name}</strong>{" "}
              <span className={`admin-badge ${agent.enabled ? "admin-badge--success" : ""}`}>
                {agent.enabled ? t("admin.agents.shown") : t("admin.agents.hidden")}
              </span>
            </>
          ),
        },
        {
          header: t("admin.agents.colLinks"),
          label: t("admin.agents.colLinksShort"),
          cell: (agent) => (
            <ul className="admin-links admin-links--inline">
              {agent.samples.map((sample) => (
                <li key={sample.platform}>
                  <a href={sample.url} target="_blank" rel="noreferrer nofollow">
                    {platformLabel(t, sample.platform)}
                  </a>
                </li>
              ))}
            </ul>
          ),
        },
        { header: t("admin.agents.colReferral"), cell: (agent) => agent.referral ?? "—" },
      ]}
      actions={(agent) => {
        const index = agents.indexOf(agent);
        return (
          <>
            <Form method="post" className="admin-inline-form">
              <input type="hidden" name="agentId" value={agent.id} />
              <SubmitButton
                name="intent"
                value="up"
                className="button--secondary button--small"
                disabled={index === 0}
                aria-label={t("admin.categories.moveUp", { name: agent.name })}
              >
                ↑
              </SubmitButton>
              <SubmitButton
                name="intent"
                value="down"
                className="button--secondary button--small"
                disabled={index === agents.length - 1}
                aria-label={t("admin.categories.moveDown", { name: agent.name })}
              >
                ↓
              </SubmitButton>
              <SubmitButton name="intent" value={agent.enabled ? "disable" : "enable"} className="button--secondary button--small">
                {agent.enabled ? t("admin.agents.hide") : t("admin.agents.show")}
              </SubmitButton>
            </Form>
            <Link to={`/admin/agents/${agent.id}`} aria-label={t("admin.common.editName", { name: agent.name })}>
              {t("admin.common.edit")}
            </Link>
            <DeleteLink to={`/admin/agents?modal=delete&agentId=${agent.id}`} name={agent.name} />
          </>
        );
      }}
    >
      {confirm ? (
        <AdminConfirmDialog
          id="delete-agent"
          title={t("admin.agents.deleteTitle")}
          closeTo="/admin/agents"
          intent="delete"
          fields={{ agentId: confirm.id }}
          submitLabel={t("admin.agents.deleteTitle")}
        >
          <p>
            <Emphasis text={t("admin.agents.deleteConfirm", { name: MARK })}>{confirm.name}</Emphasis>
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.agents.loadFailed")} />;
}
