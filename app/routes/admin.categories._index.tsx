import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { CATEGORY_LIST_DIALOG_PARAMS, CategoryListPage } from "~/components/admin/category-list";
import { ApiError, isServiceError } from "~/lib/api.server";
import { replyWithApiError } from "~/lib/forms.server";
import { listReturnTo } from "~/lib/list-address";
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
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

/** Where to go after an action: a list address the form named, else the list. */
const backTo = (formData: FormData, request: Request) =>
  listReturnTo(formData.get("returnTo"), "/admin/categories", CATEGORY_LIST_DIALOG_PARAMS, request);

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
  return <CategoryListPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.categoryLoadFailed} />;
}
