import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AgentForm } from "~/components/admin/agent-form";
import { isServiceError, orPageNotFound, pageId } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { agentSchema, AGENT_MESSAGES as M } from "~/schemas/marketplace";
import { agentJson, getAgent, updateAgentByAdmin, MANAGE_AGENTS } from "~/services/agents.server";
import { translatorOf } from "~/i18n/i18n.server";
import { translatorFor, useT } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";

function agentId(value: string | undefined): number {
  return pageId(value, M.notFound);
}

const agentOrNotFound = (id: number) => orPageNotFound(getAgent(id), M.notFound);

/** /admin/agents/:id (super admin): edit an agent. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_AGENTS);
  const agent = agentJson(await agentOrNotFound(agentId(params.id)));
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      template_weidian: agent.template_weidian ?? "",
      template_taobao: agent.template_taobao ?? "",
      template_tmall: agent.template_tmall ?? "",
      template_1688: agent.template_1688 ?? "",
      read_patterns: agent.read_patterns,
      referral_param: agent.referral_param ?? "",
      referral_code: agent.referral_code ?? "",
      enabled: agent.enabled,
    },
  };
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const id = agentId(params.id);
      await agentOrNotFound(id);
      const submission = parseWithZod(await request.formData(), { schema: agentSchema });
      // refused input answers 400 (a name taken 409) with the errors on their fields
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      try {
        const agent = await updateAgentByAdmin(id, submission.value, actor);
        return redirectWithToast("/admin/agents", { message: translatorOf(request)("admin.agents.saved", { name: agent.name }) });
      } catch (error) {
        const result = replyWithApiError(submission, error);
        return data({ result }, { status: isServiceError(error) ? error.status : 400 });
      }
    },
    MANAGE_AGENTS,
  );

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.agents.editPageTitle", { name: data?.agent.name ?? t("admin.agents.agent") }),
    noindex: true,
  });
};

export default function EditAgent() {
  const { agent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/agents">← {t("admin.nav.agents")}</Link>
        </p>
        <h1>{t("admin.agents.editTitle", { name: agent.name })}</h1>
      </header>
      <section className="card">
        <AgentForm id="edit-agent" defaults={agent} lastResult={actionData?.result} submitLabel={t("admin.agents.save")} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.agents.loadOneFailed")} />;
}
