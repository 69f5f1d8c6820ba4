import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { isServiceError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { agentTemplateFor, buildAgentLink } from "~/lib/marketplace-links";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { PLATFORM_LABELS, PLATFORMS } from "~/schemas/catalogue-rules";
import { AGENT_MESSAGES as M } from "~/schemas/marketplace-rules";
import { allAgents, deleteAgentByAdmin, moveAgent, setAgentEnabled, MANAGE_AGENTS, testLink } from "~/services/agents.server";
import { AdminConfirmDialog, AdminList, DeleteLink } from "~/components/admin/admin-list";
import { EmptyState } from "~/components/ui/empty-state";

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
    test: await linkTestView(url.searchParams.get("test") ?? ""),
  };
}

/** The "test a link" box's answer, in words. */
async function linkTestView(raw: string) {
  const text = raw.trim().slice(0, 2000);
  if (!text) return null;
  const { reading, agent } = await testLink(text);
  if (reading.kind === "item")
    return {
      text,
      ok: true,
      message: `${PLATFORM_LABELS[reading.platform]} item ${reading.itemId}`,
      how: agent
        ? `read with ${agent}'s link forms`
        : reading.via === "link"
          ? "a marketplace's own link"
          : "a link carried inside this one",
    };
  if (reading.kind === "number")
    return { text, ok: true, message: `Item id ${reading.itemId}`, how: `a bare number: ${reading.candidates.join(" or ")}` };
  if (reading.kind === "short") return { text, ok: true, message: "A short link", how: "opened on the server to find the item" };
  return {
    text,
    ok: false,
    message: "Not read as an item",
    how: "add the agent's link form to one of the agents below (Edit → older link forms), or add the agent",
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
      try {
        if (intent === "up" || intent === "down") {
          await moveAgent(id, intent, actor);
          return redirectWithToast("/admin/agents", { message: "Order saved." });
        }
        if (intent === "enable" || intent === "disable") {
          const saved = await setAgentEnabled(id, intent === "enable", actor);
          return redirectWithToast("/admin/agents", {
            message: `${saved.name} is ${saved.enabled ? "shown" : "hidden"} on product pages.`,
          });
        }
        if (intent === "delete") {
          const agent = await deleteAgentByAdmin(id, actor);
          return redirectWithToast("/admin/agents", { message: M.deleted(agent.name) });
        }
      } catch (error) {
        if (isServiceError(error) && error.status < 500)
          return redirectWithToast("/admin/agents", { type: "error", message: error.message });
        throw error;
      }
      throw new Response("Unknown action", { status: 400 });
    },
    MANAGE_AGENTS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Shopping agents · Admin", noindex: true });

export default function AgentsPage() {
  const { agents, confirm, test } = useLoaderData<typeof loader>();
  return (
    <AdminList
      title="Shopping agents"
      count={agents.length}
      intro={'Product pages show a "Buy via" link for each agent shown here, in this order; a shopper\'s own choice comes first.'}
      toolbar={
        <Link to="/admin/agents/new" className="button">
          Add agent
        </Link>
      }
      filters={
        <section className="card admin-link-test" aria-labelledby="link-test-title">
          <h2 id="link-test-title">Test a link</h2>
          <Form method="get" action="/admin/agents" className="site-search">
            <label htmlFor="link-test" className="visually-hidden">
              A link to test
            </label>
            <input
              id="link-test"
              type="text"
              name="test"
              defaultValue={test?.text ?? ""}
              placeholder="Paste an agent's or a marketplace's link"
            />
            <button type="submit">Test</button>
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
        <EmptyState title="No shopping agents yet.">
          <p>
            <Link to="/admin/agents/new">Add the first agent</Link>: product pages then offer its links.
          </p>
        </EmptyState>
      }
      columns={[
        {
          header: "Agent",
          cell: (agent) => (
            <>
              <strong>{agent.name}</strong>{" "}
              <span className={`admin-badge ${agent.enabled ? "admin-badge--success" : ""}`}>{agent.enabled ? "Shown" : "Hidden"}</span>
            </>
          ),
        },
        {
          header: "Links (sample items)",
          label: "Links",
          cell: (agent) => (
            <ul className="admin-links admin-links--inline">
              {agent.samples.map((sample) => (
                <li key={sample.platform}>
                  <a href={sample.url} target="_blank" rel="noreferrer nofollow">
                    {sample.label}
                  </a>
                </li>
              ))}
            </ul>
          ),
        },
        { header: "Referral", cell: (agent) => agent.referral ?? "—" },
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
                aria-label={`Move ${agent.name} up`}
              >
                ↑
              </SubmitButton>
              <SubmitButton
                name="intent"
                value="down"
                className="button--secondary button--small"
                disabled={index === agents.length - 1}
                aria-label={`Move ${agent.name} down`}
              >
                ↓
              </SubmitButton>
              <SubmitButton name="intent" value={agent.enabled ? "disable" : "enable"} className="button--secondary button--small">
                {agent.enabled ? "Hide" : "Show"}
              </SubmitButton>
            </Form>
            <Link to={`/admin/agents/${agent.id}`} aria-label={`Edit ${agent.name}`}>
              Edit
            </Link>
            <DeleteLink to={`/admin/agents?modal=delete&agentId=${agent.id}`} name={agent.name} />
          </>
        );
      }}
    >
      {confirm ? (
        <AdminConfirmDialog
          id="delete-agent"
          title="Delete agent"
          closeTo="/admin/agents"
          intent="delete"
          fields={{ agentId: confirm.id }}
          submitLabel="Delete agent"
        >
          <p>
            Delete <strong>{confirm.name}</strong>? Product pages stop linking to it and its links are no longer read back. To pause it,
            hide it instead.
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The agents could not be loaded." />;
}
