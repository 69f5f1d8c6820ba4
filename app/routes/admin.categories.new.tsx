import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { CategoryForm } from "~/components/admin/category-forms";
import { replyWithApiError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { categoryCreateFormSchema } from "~/schemas/catalogue";
import { CATALOGUE_MESSAGES as M } from "~/schemas/catalogue-messages";
import { createCategory, parentChoices } from "~/services/catalogue/categories.server";
import { readLanguage, translateMessage } from "~/i18n/i18n.server";
import { useT } from "~/i18n/i18n";

/** /admin/categories/new: the create form as a page of its own (the list also offers it in a dialog). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { permission: "product.create" });
  return { parents: (await parentChoices()).map(({ id, name }) => ({ id, name })) };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const submission = parseWithZod(await request.formData(), { schema: categoryCreateFormSchema });
      if (submission.status !== "success") return { result: submission.reply() };
      try {
        const category = await createCategory(submission.value, actor);
        return redirectWithToast("/admin/categories", {
          message: `${translateMessage(readLanguage(request), M.categoryCreated)}: ${category.name}`,
        });
      } catch (error) {
        return { result: replyWithApiError(submission, error) };
      }
    },
    { permission: "product.create" },
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.categoryForm.newPageTitle", noindex: true });

export default function NewCategory() {
  const { parents } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/categories">← {t("admin.categories.title")}</Link>
        </p>
        <h1>{t("admin.dashboard.addCategory")}</h1>
      </header>
      <section className="card">
        <CategoryForm
          id="new-category-form"
          intent="create"
          parents={parents}
          lastResult={actionData?.result}
          submitLabel={t("admin.categories.create")}
          cancelTo="/admin/categories"
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.categoryCreateFailed} />;
}
