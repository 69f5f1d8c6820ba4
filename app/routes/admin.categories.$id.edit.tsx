import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { CategoryForm } from "~/components/admin/category-forms";
import { formatDateTime } from "~/components/admin/format";
import { nullIfNotFound, orPageNotFound, pageId } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { categoryInputSchema } from "~/schemas/catalogue";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import { getCategory, parentChoices, subcategoryCount, updateCategoryByAdmin } from "~/services/catalogue/categories.server";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { translatorFor, useT } from "~/i18n/i18n";
import { rootLanguage } from "~/lib/meta";

/** The category of the address, or the site's 404 page (a non-numeric id included). */
async function categoryOf(idParam: string | undefined) {
  return orPageNotFound(getCategory(pageId(idParam, "Invalid category id")), M.categoryNotFound);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request, { permission: "product.edit" });
  const category = await categoryOf(params.id);
  const parents = await parentChoices(category.id);
  const parent = category.parentId ? await nullIfNotFound(getCategory(category.parentId)) : null;
  return {
    category: {
      id: category.id,
      name: category.name,
      description: category.description,
      parentId: category.parentId,
      parentName: parent?.name ?? null,
      sortOrder: category.sortOrder,
      createdAt: category.createdAt,
      updatedAt: category.updatedAt,
    },
    parents: parents.map(({ id, name }) => ({ id, name })),
    hasChildren: (await subcategoryCount(category.id)) > 0,
  };
}

export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const category = await categoryOf(params.id);
      const say = (text: string) => translateMessage(readLanguage(request), text);
      const submission = parseWithZod(await request.formData(), { schema: categoryInputSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        const { changed } = await updateCategoryByAdmin(
          category.id,
          {
            name: submission.value.name,
            description: submission.value.description ?? null,
            parent_id: submission.value.parent_id ?? null,
            sort_order: submission.value.sort_order ?? 0,
          },
          actor,
        );
        if (!changed) return { result: submission.reply({ formErrors: [say(M.categoryNoChanges)] }) };
        return redirectWithToast("/admin/categories", { message: `${say(M.categoryUpdated)}: ${submission.value.name}` });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    { permission: "product.edit" },
  );

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.categoryForm.editPageTitle", { name: data?.category.name ?? t("admin.productForm.category") }),
    noindex: true,
  });
};

export default function EditCategory() {
  const { category, parents, hasChildren } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/categories">← {t("admin.categories.title")}</Link>
        </p>
        <h1>{t("admin.categoryForm.editTitle")}</h1>
      </header>
      <dl className="admin-facts">
        <dt>ID</dt>
        <dd>{category.id}</dd>
        <dt>{t("admin.categoryForm.created")}</dt>
        <dd>{formatDateTime(category.createdAt)}</dd>
        <dt>{t("admin.categoryForm.updated")}</dt>
        <dd>{formatDateTime(category.updatedAt)}</dd>
        <dt>{t("admin.categoryForm.currentParent")}</dt>
        <dd>{category.parentName ?? t("admin.categoryForm.noParent")}</dd>
      </dl>
      <section className="card">
        <CategoryForm
          id="edit-category-form"
          intent="update"
          parents={parents}
          defaults={category}
          lastResult={actionData?.result}
          submitLabel={t("admin.users.saveChanges")}
          cancelTo="/admin/categories"
          parentHint={hasChildren ? t("admin.categoryForm.staysTop") : undefined}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.categoryLoadFailed} />;
}
