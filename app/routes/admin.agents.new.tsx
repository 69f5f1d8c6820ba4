import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AgentForm } from "~/components/admin/agent-form";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { agentSchema, AGENT_MESSAGES as M } from "~/schemas/marketplace";
import { createAgent, MANAGE_AGENTS } from "~/services/agents.server";

/** /admin/agents/new (super admin). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_AGENTS);
  return null;
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const submission = parseWithZod(await request.formData(), { schema: agentSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        const agent = await createAgent(submission.value, actor);
        return redirectWithToast("/admin/agents", { message: M.created(agent.name) });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    MANAGE_AGENTS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Add agent · Admin", noindex: true });

export default function NewAgent() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/agents">← Shopping agents</Link>
        </p>
        <h1>Add agent</h1>
      </header>
      <section className="card">
        <AgentForm id="new-agent" defaults={null} lastResult={actionData?.result} submitLabel="Add agent" />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The agent form could not be loaded." />;
}
