/**
 * The blog category screen (/admin/blog and /admin/blog/categories): the nested tree
 * with create, edit and delete dialogs chosen by the URL (decision 007). The slug is made
 * from the name when left empty; with JavaScript the field shows what it will be.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { AdminDialog } from "~/components/admin/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, FormErrors } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { slugFromName } from "~/lib/blog-text";
import { listAddress } from "~/lib/list-address";
import type { blogCategoriesLoader, CategoryRow } from "~/controllers/admin-blog.server";
import { AdminList, DeleteLink } from "~/components/admin/admin-list";
import { useI18n, useT } from "~/i18n/i18n";
import { Emphasis, MARK } from "./emphasis";

type LoaderData = Awaited<ReturnType<typeof blogCategoriesLoader>>;
type ActionData = { intent: "create" | "update"; result: SubmissionResult<string[]> } | { intent: "delete"; error: string } | undefined;

const DIALOG_PARAMS = ["modal", "categoryId"];

function CategoryForm({
  rows,
  category,
  excluded,
  lastResult,
  cancelTo,
}: {
  rows: CategoryRow[];
  category?: CategoryRow;
  excluded: number[];
  lastResult?: SubmissionResult<string[]>;
  cancelTo: string;
}) {
  const { t, message } = useI18n();
  const [form, fields] = useForm<{
    name: string;
    slug: string;
    description: string;
    parent_id: string;
    display_order: string;
    is_visible: string;
  }>({
    // not the dialog's id: the fields name their form by this id
    id: category ? `blog-category-form-${category.id}` : "blog-category-form",
    lastResult,
    defaultValue: {
      name: category?.name ?? "",
      slug: category?.slug ?? "",
      description: category?.description ?? "",
      parent_id: category?.parentId ? String(category.parentId) : "",
      display_order: String(category?.displayOrder ?? 0),
      is_visible: category ? (category.isVisible ? "on" : "") : "on",
    },
  });
  const [name, setName] = useState(category?.name ?? "");
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset>
      <input type="hidden" name="intent" value={category ? "update" : "create"} />
      {category ? <input type="hidden" name="categoryId" value={category.id} /> : null}
      <FormErrors id={form.errorId} errors={form.errors?.map(message)} />
      <Field id={fields.name.id} label={t("admin.categories.colName")} errors={fields.name.errors}>
        <input
          {...getInputProps(fields.name, { type: "text" })}
          maxLength={100}
          autoComplete="off"
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field id={fields.slug.id} label={t("admin.blogPost.slug")} errors={fields.slug.errors} hint={t("admin.blogCategories.slugHint")}>
        <input
          {...getInputProps(fields.slug, { type: "text" })}
          maxLength={120}
          autoComplete="off"
          placeholder={slugFromName(name) || t("admin.blogCategories.slugPlaceholder")}
        />
      </Field>
      <Field id={fields.description.id} label={t("admin.productForm.description")} errors={fields.description.errors}>
        <textarea {...getTextareaProps(fields.description)} rows={3} maxLength={1000} />
      </Field>
      <div className="admin-form-grid">
        <Field
          id={fields.parent_id.id}
          label={t("admin.categoryForm.parent")}
          errors={fields.parent_id.errors}
          hint={category ? t("admin.blogCategories.parentHint") : undefined}
        >
          <select {...getSelectProps(fields.parent_id)}>
            <option value="">{t("admin.categoryForm.noParent")}</option>
            {rows
              .filter((row) => !excluded.includes(row.id))
              .map((row) => (
                <option key={row.id} value={row.id}>
                  {`${"— ".repeat(row.depth)}${row.name}`}
                </option>
              ))}
          </select>
        </Field>
        <Field
          id={fields.display_order.id}
          label={t("admin.blogCategories.displayOrder")}
          errors={fields.display_order.errors}
          hint={t("admin.categoryForm.sortHint")}
        >
          <input {...getInputProps(fields.display_order, { type: "number" })} step={1} inputMode="numeric" />
        </Field>
      </div>
      <label className="admin-check">
        <input
          type="checkbox"
          name="is_visible"
          defaultChecked={fields.is_visible.initialValue === "on" || fields.is_visible.initialValue === "true"}
        />{" "}
        {t("admin.blogCategories.visible")}
      </label>
      <div className="form-actions">
        <SubmitButton className="button" pendingText={t("admin.common.saving")}>
          {category ? t("admin.blogCategories.save") : t("admin.categories.create")}
        </SubmitButton>
        <Link to={cancelTo} className="button button--secondary" preventScrollReset>
          {t("admin.common.cancel")}
        </Link>
      </div>
    </Form>
  );
}

export function BlogCategoriesPage({ data, actionData }: { data: LoaderData; actionData: ActionData }) {
  const t = useT();
  const [searchParams] = useSearchParams();
  const close = listAddress(data.path, searchParams, DIALOG_PARAMS);
  const open = (extra: Record<string, string>) => listAddress(data.path, searchParams, DIALOG_PARAMS, extra);
  const { dialog, rows } = data;
  return (
    <AdminList
      title={t("admin.nav.blogCategories")}
      count={rows.length}
      intro={t("admin.blogCategories.intro")}
      toolbar={
        data.manage ? (
          <Link to={open({ modal: "create" })} className="button" preventScrollReset>
            {t("admin.dashboard.addCategory")}
          </Link>
        ) : null
      }
      items={rows}
      itemKey={(row) => row.id}
      empty={<EmptyState title={t("admin.blogCategories.empty")} />}
      columns={[
        {
          header: t("admin.categories.colName"),
          cell: (row) => (
            <>
              <span className="blog-tree-name" style={{ paddingInlineStart: `${row.depth * 1.25}rem` }}>
                {row.depth ? <span aria-hidden="true">└ </span> : null}
                <strong>{row.name}</strong>
              </span>
              {row.description ? <span className="admin-user-cell__meta">{row.description}</span> : null}
            </>
          ),
        },
        {
          header: t("admin.blogPost.slug"),
          cell: (row) => (
            <a href={`/blog/category/${encodeURIComponent(row.slug)}`} target="_blank" rel="noreferrer">
              {row.slug}
            </a>
          ),
        },
        {
          header: t("admin.blogCategories.colPosts"),
          cell: (row) => (
            <>
              {row.postCount} <span className="muted">/ {row.allPostCount}</span>
            </>
          ),
        },
        { header: t("admin.blogCategories.colOrder"), cell: (row) => row.displayOrder },
        {
          header: t("admin.blogCategories.colVisible"),
          cell: (row) =>
            row.isVisible ? (
              t("admin.blogCategories.yes")
            ) : (
              <span className="admin-badge admin-badge--warning">{t("admin.agents.hidden")}</span>
            ),
        },
      ]}
      actions={(row) =>
        data.manage ? (
          <>
            <Link
              to={open({ modal: "edit", categoryId: String(row.id) })}
              aria-label={t("admin.common.editName", { name: row.name })}
              preventScrollReset
            >
              {t("admin.common.edit")}
            </Link>
            <DeleteLink to={open({ modal: "delete", categoryId: String(row.id) })} name={row.name} />
          </>
        ) : null
      }
    >
      <p className="muted">{t("admin.blogCategories.postsNote")}</p>

      {dialog?.kind === "create" ? (
        <AdminDialog id="create-blog-category" title={t("admin.blogCategories.addTitle")} closeTo={close}>
          <CategoryForm
            rows={rows}
            excluded={[]}
            lastResult={actionData && actionData.intent === "create" ? actionData.result : undefined}
            cancelTo={close}
          />
        </AdminDialog>
      ) : null}
      {dialog?.kind === "edit" ? (
        <AdminDialog id="edit-blog-category" title={t("admin.agents.editTitle", { name: dialog.category.name })} closeTo={close}>
          <CategoryForm
            rows={rows}
            category={dialog.category}
            excluded={dialog.excluded}
            lastResult={actionData && actionData.intent === "update" ? actionData.result : undefined}
            cancelTo={close}
          />
        </AdminDialog>
      ) : null}
      {dialog?.kind === "delete" ? (
        <AdminDialog id="delete-blog-category" title={t("admin.blogCategories.deleteTitle")} closeTo={close}>
          <ConfirmForm
            intent="delete"
            fields={{ categoryId: dialog.category.id }}
            submitLabel={t("admin.categories.deleteTitle")}
            cancelTo={close}
            error={actionData?.intent === "delete" ? actionData.error : undefined}
            errorId="delete-blog-category-errors"
          >
            <p>
              <Emphasis text={t("admin.categoryForm.deleteConfirm", { name: MARK })}>{dialog.category.name}</Emphasis>
            </p>
            {dialog.childCount ? <p className="muted">{t("admin.blogCategories.childrenMoveUp", { count: dialog.childCount })}</p> : null}
            {dialog.category.allPostCount ? (
              <p className="muted">{t("admin.blogCategories.postsLeft", { count: dialog.category.allPostCount })}</p>
            ) : null}
          </ConfirmForm>
        </AdminDialog>
      ) : null}
      {dialog?.kind === "missing" ? (
        <AdminDialog id="missing-blog-category" title={t("admin.blogCategories.notFoundTitle")} closeTo={close}>
          <p role="alert">{t("admin.blogCategories.notFound")}</p>
        </AdminDialog>
      ) : null}
    </AdminList>
  );
}
