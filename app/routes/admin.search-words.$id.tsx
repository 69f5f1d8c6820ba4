import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { SearchAliasForm } from "~/components/admin/search-alias-form";
import { orPageNotFound, pageId } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { searchAliasSchema, SEARCH_ALIAS_MESSAGES as M } from "~/schemas/search";
import { adminAction, requireAdmin } from "~/services/permissions.server";
import { getSearchAlias, MANAGE_SEARCH_WORDS, updateSearchAlias } from "~/services/search.server";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { translatorFor, useT } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";

const aliasId = (value: string | undefined) => pageId(value, M.notFound);
const aliasOrNotFound = (id: number) => orPageNotFound(getSearchAlias(id), M.notFound);

/** /admin/search-words/:id (product.edit): edit an alias. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_SEARCH_WORDS);
  const alias = await aliasOrNotFound(aliasId(params.id));
  return { alias: { id: alias.id, term: alias.term, alternatives: alias.alternatives.join(", "), both_ways: alias.bothWays } };
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const id = aliasId(params.id);
      await aliasOrNotFound(id);
      const submission = parseWithZod(await request.formData(), { schema: searchAliasSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        await updateSearchAlias(id, submission.value, actor);
        return redirectWithToast("/admin/search-words", { message: translateMessage(readLanguage(request), M.updated) });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    MANAGE_SEARCH_WORDS,
  );

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.searchWords.editPageTitle", { name: data?.alias.term ?? t("admin.searchWords.alias") }),
    noindex: true,
  });
};

export default function EditSearchAlias() {
  const { alias } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/search-words">← {t("admin.categories.searchWords")}</Link>
        </p>
        <h1>{t("admin.agents.editTitle", { name: alias.term })}</h1>
      </header>
      <section className="card">
        <SearchAliasForm
          id="edit-alias"
          defaults={alias}
          lastResult={actionData?.result}
          submitLabel={t("admin.searchWords.save")}
          cancelTo="/admin/search-words"
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.searchWords.loadOneFailed")} />;
}
