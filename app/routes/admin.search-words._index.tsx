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
      if (formData.get("intent") === "delete") {
        try {
          await deleteSearchAlias(Number(formData.get("aliasId")), actor);
          return redirectWithToast(PATH, { message: M.deleted });
        } catch (error) {
          if (isServiceError(error) && error.status < 500) return redirectWithToast(PATH, { type: "error", message: error.message });
          throw error;
        }
      }
      const submission = parseWithZod(formData, { schema: searchAliasSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        await createSearchAlias(submission.value, actor);
        return redirectWithToast(PATH, { message: M.created });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    MANAGE_SEARCH_WORDS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Search words · Admin", noindex: true });

export default function SearchWordsPage() {
  const { aliases, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // a new alias in the list: the add form starts empty again
  const formKey = aliases.map((alias) => alias.id).join(",");
  return (
    <AdminList
      title="Search words"
      count={aliases.length}
      intro="A word shoppers type also finds what it stands for. Typos and category names are found without a list."
      filters={
        <section className="card admin-list__form" aria-labelledby="new-alias-title">
          <h2 id="new-alias-title">Add an alias</h2>
          <SearchAliasForm key={formKey} id="new-alias" defaults={null} lastResult={actionData?.result} submitLabel="Add alias" />
        </section>
      }
      items={aliases}
      itemKey={(alias) => alias.id}
      empty={
        <EmptyState title="No aliases yet.">
          <p>Add one above: af1 finds Air Force 1.</p>
        </EmptyState>
      }
      columns={[
        { header: "Shoppers type", cell: (alias) => <strong>{alias.term}</strong> },
        { header: "It also finds", cell: (alias) => alias.alternatives.join(", ") },
        {
          header: "Direction",
          cell: (alias) => <span className="admin-badge">{alias.bothWays ? "Both ways" : "One way"}</span>,
        },
      ]}
      actions={(alias) => (
        <>
          <Link to={`${PATH}/${alias.id}`} aria-label={`Edit ${alias.term}`}>
            Edit
          </Link>
          <DeleteLink to={`${PATH}?modal=delete&aliasId=${alias.id}`} name={alias.term} />
        </>
      )}
    >
      {confirm ? (
        <AdminConfirmDialog
          id="delete-alias"
          title="Delete alias"
          closeTo={PATH}
          intent="delete"
          fields={{ aliasId: confirm.id }}
          submitLabel="Delete alias"
        >
          <p>
            Delete the alias <strong>{confirm.term}</strong>? Searches for it then find only the word itself.
          </p>
        </AdminConfirmDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="The search words could not be loaded." />;
}
