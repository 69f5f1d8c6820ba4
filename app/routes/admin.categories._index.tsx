import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { CategoryForm, DeleteCategoryForm } from "~/components/admin/category-forms";
import { AdminDialog } from "~/components/admin/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { listAddress, listParams, listReturnTo } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { can } from "~/lib/permissions";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { categoryCreateFormSchema, categoryListQuerySchema, categorySortFormSchema } from "~/schemas/catalogue";
import { ADMIN_CATEGORY_PAGE_SIZE } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import {
  adminCategoryPage,
  createCategory,
  deleteCategoryByAdmin,
  moveCategory,
  parentChoices,
  updateCategoryByAdmin,
} from "~/services/catalogue/categories.server";
import { AdminList, AdminSearch, DeleteLink } from "~/components/admin/admin-list";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { useI18n } from "~/i18n/i18n";

/** Query parameters that only open a dialog; links and redirects drop them. */
const DIALOG_PARAMS = ["modal", "categoryId"];

const listSearch = (params: URLSearchParams) => listParams(params, DIALOG_PARAMS);
const listHref = (params: URLSearchParams, extra: Record<string, string> = {}) =>
  listAddress("/admin/categories", params, DIALOG_PARAMS, extra);

/** Where to go after an action: a list address the form named, else the list. */
const backTo = (formData: FormData, request: Request) =>
  listReturnTo(formData.get("returnTo"), "/admin/categories", DIALOG_PARAMS, request);

export async function loader({ request }: LoaderFunctionArgs) {
  const { access } = await requireAdmin(request);
  const url = new URL(request.url);
  const query = categoryListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const page = await adminCategoryPage({ q: query.q, page: query.page, limit: ADMIN_CATEGORY_PAGE_SIZE });
  const allowed = { create: can(access, "product.create"), edit: can(access, "product.edit"), delete: can(access, "product.delete") };

  const modal = url.searchParams.get("modal");
  let dialog:
    | { kind: "create"; parents: Array<{ id: number; name: string }> }
    | { kind: "delete"; category: { id: number; name: string; productCount: number; childCount: number } | null }
    | null = null;
  if (modal === "create" && allowed.create) {
    dialog = { kind: "create", parents: (await parentChoices()).map(({ id, name }) => ({ id, name })) };
  } else if (modal === "delete" && allowed.delete) {
    const targetId = Number(url.searchParams.get("categoryId"));
    const all = await adminCategoryPage({ q: "", page: 1, limit: Number.MAX_SAFE_INTEGER });
    const target = all.items.find((category) => category.id === targetId);
    dialog = {
      kind: "delete",
      category: target
        ? {
            id: target.id,
            name: target.name,
            productCount: target.productCount,
            childCount: all.items.filter((c) => c.parentId === target.id).length,
          }
        : null,
    };
  }

  return {
    query,
    list: {
      totalItems: page.totalItems,
      totalPages: page.totalPages,
      currentPage: page.page,
      items: page.items.map((category) => ({
        id: category.id,
        name: category.name,
        description: category.description,
        parentName: category.parentName,
        sortOrder: category.sortOrder,
        productCount: category.productCount,
      })),
    },
    allowed,
    dialog,
  };
}

type ActionData = { intent: "create"; result: SubmissionResult<string[]> } | { intent: "delete"; error: string };

export const action = ({ request }: ActionFunctionArgs) =>
  // who is asking, before the form is read; what they may do, the service decides
  adminAction(request, async (actor) => {
    const formData = await request.formData();
    const intent = formData.get("intent");
    const back = backTo(formData, request);
    // the notices in the reader's language (the services' words are the /api's)
    const language = readLanguage(request);
    const t = translatorFor(language);
    const say = (text: string) => translateMessage(language, text);

    if (intent === "create") {
      const submission = parseWithZod(formData, { schema: categoryCreateFormSchema });
      if (submission.status !== "success") return { intent, result: submission.reply() } satisfies ActionData;
      try {
        const category = await createCategory(submission.value, actor);
        return redirectWithToast(back, { message: `${say(M.categoryCreated)}: ${category.name}` });
      } catch (error) {
        return { intent, result: replyWithApiError(submission, error) } satisfies ActionData;
      }
    }

    if (intent === "sort") {
      const parsed = categorySortFormSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success)
        return redirectWithToast(back, {
          type: "error",
          message: `${say(M.categorySortFailed)}: ${say(parsed.error.issues[0]?.message ?? M.categorySortInvalid)}`,
        });
      try {
        await updateCategoryByAdmin(parsed.data.id, { sort_order: parsed.data.sort_order }, actor);
      } catch (error) {
        if (isServiceError(error))
          return redirectWithToast(back, { type: "error", message: `${say(M.categorySortFailed)}: ${say(error.message)}` });
        throw error;
      }
      return redirectWithToast(back, { message: say(M.categorySorted) });
    }

    if (intent === "up" || intent === "down") {
      const id = Number(formData.get("categoryId"));
      try {
        if (!Number.isInteger(id) || id <= 0) throw new ApiError(404, M.categoryNotFound);
        // past the neighbour the admin sees: the list may be narrowed by a search
        const moved = await moveCategory(id, intent, new URL(back, "http://x").searchParams.get("q") ?? "", actor);
        return redirectWithToast(
          back,
          moved
            ? { message: say(M.categorySorted) }
            : { type: "info", message: intent === "up" ? t("admin.categories.alreadyFirst") : t("admin.categories.alreadyLast") },
        );
      } catch (error) {
        if (isServiceError(error))
          return redirectWithToast(back, { type: "error", message: `${say(M.categoryMoveFailed)}: ${say(error.message)}` });
        throw error;
      }
    }

    if (intent === "delete") {
      const id = Number(formData.get("categoryId"));
      try {
        if (!Number.isInteger(id) || id <= 0) throw new ApiError(404, M.categoryNotFound);
        await deleteCategoryByAdmin(id, actor);
      } catch (error) {
        if (isServiceError(error)) return { intent, error: `${say(M.categoryDeleteFailed)}: ${say(error.message)}` } satisfies ActionData;
        throw error;
      }
      return redirectWithToast(back, { message: say(M.categoryDeleted) });
    }

    throw new Response("Unknown action", { status: 400 });
  });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.categories.pageTitle", noindex: true });

export default function AdminCategories() {
  const { query, list, allowed, dialog } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, message } = useI18n();
  const [searchParams] = useSearchParams();
  const closeHref = listHref(searchParams);
  const returnTo = closeHref;

  return (
    <AdminList
      title={t("admin.categories.title")}
      count={list.totalItems}
      intro={t("admin.categories.intro")}
      toolbar={
        <>
          {allowed.edit ? (
            <Link to="/admin/search-words" className="button button--secondary">
              {t("admin.categories.searchWords")}
            </Link>
          ) : null}
          {allowed.create ? (
            <Link to={listHref(searchParams, { modal: "create" })} className="button" preventScrollReset>
              {t("admin.dashboard.addCategory")}
            </Link>
          ) : null}
        </>
      }
      filters={
        <div className="admin-filters">
          <AdminSearch
            action="/admin/categories"
            id="category-search"
            label={t("admin.categories.searchLabel")}
            value={query.q}
            placeholder={t("admin.categories.searchPlaceholder")}
          />
        </div>
      }
      items={list.items}
      itemKey={(category) => category.id}
      empty={
        <EmptyState title={query.q ? t("admin.categories.noMatch", { query: query.q }) : t("admin.categories.empty")}>
          {!query.q && allowed.create ? (
            <p>
              <Link to="/admin/categories/new">{t("admin.categories.addFirst")}</Link>
            </p>
          ) : null}
        </EmptyState>
      }
      columns={[
        {
          header: t("admin.categories.colName"),
          cell: (category) => (
            <>
              <strong>{category.name}</strong>
              <span className="admin-user-cell__meta">ID {category.id}</span>
              {category.description ? <span className="admin-user-cell__meta">{category.description}</span> : null}
            </>
          ),
        },
        { header: t("admin.categories.colParent"), cell: (category) => category.parentName ?? "—" },
        {
          header: t("admin.categories.colProducts"),
          cell: (category) => (
            <a href={`/category/${category.id}`} target="_blank" rel="noreferrer">
              {category.productCount}
            </a>
          ),
        },
        {
          header: t("admin.categories.colSort"),
          cell: (category) =>
            allowed.edit ? (
              <Form method="post" action="/admin/categories?index" className="admin-inline-form" preventScrollReset>
                <input type="hidden" name="intent" value="sort" />
                <input type="hidden" name="id" value={category.id} />
                <input type="hidden" name="returnTo" value={returnTo} />
                <label className="visually-hidden" htmlFor={`sort-${category.id}`}>
                  {t("admin.categories.sortOf", { name: category.name })}
                </label>
                <input
                  id={`sort-${category.id}`}
                  name="sort_order"
                  type="number"
                  min={0}
                  step={1}
                  defaultValue={category.sortOrder}
                  className="admin-inline-form__number"
                />
                <SubmitButton className="button button--secondary button--small" name="intent" value="sort" pendingText="…">
                  {t("admin.categories.set")}
                </SubmitButton>
              </Form>
            ) : (
              category.sortOrder
            ),
        },
      ]}
      actions={(category) => (
        <>
          {allowed.edit ? (
            <Form method="post" action="/admin/categories?index" className="admin-inline-form" preventScrollReset>
              <input type="hidden" name="categoryId" value={category.id} />
              <input type="hidden" name="returnTo" value={returnTo} />
              <button
                type="submit"
                name="intent"
                value="up"
                className="button button--secondary button--small"
                aria-label={t("admin.categories.moveUp", { name: category.name })}
              >
                ↑
              </button>
              <button
                type="submit"
                name="intent"
                value="down"
                className="button button--secondary button--small"
                aria-label={t("admin.categories.moveDown", { name: category.name })}
              >
                ↓
              </button>
            </Form>
          ) : null}
          {allowed.edit ? (
            <Link to={`/admin/categories/${category.id}/edit`} aria-label={t("admin.common.editName", { name: category.name })}>
              {t("admin.common.edit")}
            </Link>
          ) : null}
          {allowed.delete ? (
            <DeleteLink to={listHref(searchParams, { modal: "delete", categoryId: String(category.id) })} name={category.name} />
          ) : null}
        </>
      )}
      paging={{
        currentPage: list.currentPage,
        totalPages: list.totalPages,
        searchParams: listSearch(searchParams),
        label: t("admin.categories.pages"),
      }}
    >
      {dialog?.kind === "create" ? (
        <AdminDialog id="create-category" title={t("admin.dashboard.addCategory")} closeTo={closeHref}>
          <CategoryForm
            id="create-category-form"
            intent="create"
            parents={dialog.parents}
            lastResult={actionData?.intent === "create" ? actionData.result : undefined}
            submitLabel={t("admin.categories.create")}
            cancelTo={closeHref}
          />
        </AdminDialog>
      ) : null}

      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-category" title={t("admin.categories.deleteTitle")} closeTo={closeHref}>
          {dialog.category ? (
            <DeleteCategoryForm
              category={dialog.category}
              error={actionData?.intent === "delete" ? actionData.error : undefined}
              cancelTo={closeHref}
              returnTo={returnTo}
            />
          ) : (
            <p role="alert">{message(M.categoryNotFound)}</p>
          )}
        </AdminDialog>
      ) : null}
    </AdminList>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.categoryLoadFailed} />;
}
