import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AgentForm } from "~/components/admin/agent-form";
import { isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { agentSchema } from "~/schemas/marketplace";
import { createAgent, MANAGE_AGENTS } from "~/services/agents.server";
import { translatorOf } from "~/i18n/i18n.server";
import { useT } from "~/i18n/i18n";

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
      // refused input answers 400 (a name taken 409) with the errors on their fields
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      try {
        const agent = await createAgent(submission.value, actor);
        return redirectWithToast("/admin/agents", { message: translatorOf(request)("admin.agents.created", { name: agent.name }) });
      } catch (error) {
        const result = replyWithApiError(submission, error);
        return data({ result }, { status: isServiceError(error) ? error.status : 400 });
      }
    },
    MANAGE_AGENTS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.agents.newPageTitle", noindex: true });

export default function NewAgent() {
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/agents">← {t("admin.nav.agents")}</Link>
        </p>
        <h1>{t("admin.agents.add")}</h1>
      </header>
      <section className="card">
        <AgentForm id="new-agent" defaults={null} lastResult={actionData?.result} submitLabel={t("admin.agents.add")} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.agents.formLoadFailed")} />;
}
