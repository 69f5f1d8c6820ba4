/**
 * The back office's category list (/admin/categories): search, the table with each
 * category's sort order and move buttons, edit and delete, and the create and delete
 * dialogs chosen by the URL (decision 007). Plain forms: works without JavaScript.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useSearchParams } from "@remix-run/react";
import type { z } from "zod";
import { AdminList, AdminSearch, DeleteLink } from "~/components/admin/admin-list";
import { CategoryForm, DeleteCategoryForm, type ParentChoice } from "~/components/admin/category-forms";
import { AdminDialog } from "~/components/admin/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { SubmitButton } from "~/components/ui/submit-button";
import { useI18n, useT } from "~/i18n/i18n";
import { listAddress, listParams } from "~/lib/list-address";
import type { categoryListQuerySchema } from "~/schemas/catalogue";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";

/** Query parameters that only open a dialog; links and redirects drop them. */
export const CATEGORY_LIST_DIALOG_PARAMS = ["modal", "categoryId"];

const listSearch = (params: URLSearchParams) => listParams(params, CATEGORY_LIST_DIALOG_PARAMS);
const listHref = (params: URLSearchParams, extra: Record<string, string> = {}) =>
  listAddress("/admin/categories", params, CATEGORY_LIST_DIALOG_PARAMS, extra);

type CategoryRow = {
  id: number;
  name: string;
  description: string | null;
  parentName: string | null;
  sortOrder: number;
  productCount: number;
};

/** The route's loader data (a component may not import its route: the route's call checks its data against this). */
type CategoryListData = {
  query: z.infer<typeof categoryListQuerySchema>;
  list: { totalItems: number; totalPages: number; currentPage: number; items: CategoryRow[] };
  allowed: { create: boolean; edit: boolean; delete: boolean };
  dialog:
    | { kind: "create"; parents: ParentChoice[] }
    | { kind: "delete"; category: { id: number; name: string; productCount: number; childCount: number } | null }
    | null;
};

/** What the list's actions answer when they do not redirect. */
type CategoryListActionData = { intent: "create"; result: SubmissionResult<string[]> } | { intent: "delete"; error: string };

export function CategoryListPage({ data, actionData }: { data: CategoryListData; actionData?: CategoryListActionData }) {
  const { query, list, allowed, dialog } = data;
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
          cell: (category) => (allowed.edit ? <CategorySortForm category={category} returnTo={returnTo} /> : category.sortOrder),
        },
      ]}
      actions={(category) => (
        <>
          {allowed.edit ? <CategoryMoveForm category={category} returnTo={returnTo} /> : null}
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

/** A row's sort order: a number field and its Set button. */
function CategorySortForm({ category, returnTo }: { category: CategoryRow; returnTo: string }) {
  const t = useT();
  return (
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
  );
}

/** A row's ↑ and ↓ buttons: past the neighbour above or below. */
function CategoryMoveForm({ category, returnTo }: { category: CategoryRow; returnTo: string }) {
  const t = useT();
  return (
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
  );
}
