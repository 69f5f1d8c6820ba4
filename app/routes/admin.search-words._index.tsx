import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminConfirmDialog, AdminList, DeleteLink } from "~/components/admin/admin-list";
import { SearchAliasForm } from "~/components/admin/search-alias-form";
import { EmptyState } from "~/components/ui/empty-state";
import { isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { searchAliasSchema, SEARCH_ALIAS_MESSAGES as M } from "~/schemas/search";
import { adminAction, requireAdmin } from "~/services/permissions.server";
import { createSearchAlias, deleteSearchAlias, MANAGE_SEARCH_WORDS, searchAliases } from "~/services/search.server";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "~/components/admin/emphasis";

const PATH = "/admin/search-words";

/**
 * /admin/search-words (product.edit): the aliases the search uses (docs/decisions/028-forgiving-search.md):
 * a word shoppers type and what it also finds, one way or both. Add at the top; edit or
 * delete (with a confirmation step) in the list.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_SEARCH_WORDS);
  const url = new URL(request.url);
  const aliases = await searchAliases();
  const confirmId = Number(url.searchParams.get("aliasId"));
  const confirm = url.searchParams.get("modal") === "delete" ? (aliases.find((alias) => alias.id === confirmId) ?? null) : null;
  return {
    aliases: aliases.map((alias) => ({ id: alias.id, term: alias.term, alternatives: alias.alternatives, bothWays: alias.bothWays })),
    confirm: confirm ? { id: confirm.id, term: confirm.term } : null,
  };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      const say = (text: string) => translateMessage(readLanguage(request), text);
      if (formData.get("intent") === "delete") {
        try {
          await deleteSearchAlias(Number(formData.get("aliasId")), actor);
          return redirectWithToast(PATH, { message: say(M.deleted) });
        } catch (error) {
          if (isServiceError(error) && error.status < 500) return redirectWithToast(PATH, { type: "error", message: say(error.message) });
          throw error;
        }
      }
      const submission = parseWithZod(formData, { schema: searchAliasSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        await createSearchAlias(submission.value, actor);
        return redirectWithToast(PATH, { message: say(M.created) });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    MANAGE_SEARCH_WORDS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.searchWords.pageTitle", noindex: true });

export default function SearchWordsPage() {
  const { aliases, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  // a new alias in the list: the add form starts empty again
  const formKey = aliases.map((alias) => alias.id).join(",");
  return (
    <AdminList
      title={t("admin.categories.searchWords")}
      count={aliases.length}
      intro={t("admin.searchWords.intro")}
      filters={
        <section className="card admin-list__form" aria-labelledby="new-alias-title">
          <h2 id="new-alias-title">{t("admin.searchWords.addTitle")}</h2>
          <SearchAliasForm
            key={formKey}
            id="new-alias"
            defaults={null}
            lastResult={actionData?.result}
            submitLabel={t("admin.searchWords.add")}
          />
        </section>
      }
      items={aliases}
      itemKey={(alias) => alias.id}
      empty={
        <EmptyState title={t("admin.searchWords.empty")}>
          <p>{t("admin.searchWords.emptyHint")}</p>
        </EmptyState>
      }
      columns={[
        { header: t("admin.searchWords.shoppersType"), cell: (alias) => <strong>{alias.term}</strong> },
        { header: t("admin.searchWords.alsoFinds"), cell: (alias) => alias.alternatives.join(", ") },
        {
          header: t("admin.searchWords.direction"),
          cell: (alias) => (
            <span className="admin-badge">{alias.bothWays ? t("admin.searchWords.bothWays") : t("admin.searchWords.oneWay")}</span>
          ),
        },
      ]}
      actions={(alias) => (
        <>
          <Link to={`${PATH}/${alias.id}`} aria-label={t("admin.common.editName", { name: alias.term })}>
            {t("admin.common.edit")}
          </Link>
          <DeleteLink to={`${PATH}?modal=delete&aliasId=${alias.id}`} name={alias.term} />
        </>
      )}
    >
      {confirm ? (
        <AdminConfirmDialog
          id="delete-alias"
          title={t("admin.searchWords.deleteTitle")}
          closeTo={PATH}
          intent="delete"
          fields={{ aliasId: confirm.id }}
          submitLabel={t("admin.searchWords.deleteTitle")}
        >
          <p>
            <Emphasis text={t("admin.searchWords.deleteConfirm", { name: MARK })}>{confirm.term}</Emphasis>
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.searchWords.loadFailed")} />;
}
