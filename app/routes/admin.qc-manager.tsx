import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import type { QcImagesActionData } from "~/components/admin/qc-images";
import { QC_MANAGER_DIALOG_PARAMS, QC_MANAGER_PATH, QcManagerPage } from "~/components/admin/qc-manager";
import { adminImagesOf, qcAllowed, qcImagesAction, requireQcViewer, toAdminQcImage } from "~/controllers/admin-qc.server";
import { ApiError } from "~/lib/api.server";
import { listAddress } from "~/lib/list-address";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { qcManagerQuerySchema } from "~/schemas/qc";
import { QC_MESSAGES as M } from "~/schemas/qc-rules";
import { productPath } from "~/services/catalogue/common.server";
import { findFolderProduct, productForQc, qcFolders, qcTotals } from "~/services/qc.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

const selectedId = (params: URLSearchParams): number | null => {
  const value = params.get("product");
  return value && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
};

/**
 * /admin/qc-manager (docs/product/admin.md 2, 5, 9): products as QC folders, in a folder list or a
 * grid of cards (up to 20 thumbnails, then '+N more'); filters, search by id or name, 10,
 * 20 or 50 a page; the chosen folder's photos with upload, select and delete; 'New QC
 * folder' by id.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { access } = await requireQcViewer(request);
  const url = new URL(request.url);
  const query = qcManagerQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [page, totals] = await Promise.all([qcFolders(query), qcTotals()]);
  const allowed = qcAllowed(access);

  let selected: { id: number; name: string; isExternal: boolean; url: string; images: ReturnType<typeof toAdminQcImage>[] } | null = null;
  let selectedMissing = false;
  const id = selectedId(url.searchParams);
  if (id !== null) {
    const product = await productForQc(id);
    if (product)
      selected = {
        id: product.id,
        name: product.name,
        isExternal: product.isExternal,
        url: productPath(product),
        images: await adminImagesOf(product.id),
      };
    else selectedMissing = true;
  }
  const confirmId = Number(url.searchParams.get("imageId"));
  const confirmOne =
    url.searchParams.get("modal") === "delete" && allowed.delete
      ? (selected?.images.find((image) => image.id === confirmId) ?? null)
      : null;

  return {
    query,
    allowed,
    totals,
    newFolder: url.searchParams.get("modal") === "new-folder",
    list: {
      totalItems: page.totalItems,
      totalPages: page.totalPages,
      currentPage: page.page,
      items: page.items.map((folder) => ({
        id: folder.product.id,
        name: folder.product.name,
        isExternal: folder.product.isExternal,
        approved: folder.approved,
        pending: folder.pending,
        previews: folder.previews.map(toAdminQcImage),
      })),
    },
    selected,
    selectedMissing,
    confirmOne,
  };
}

type NewFolderData = { intent: "new-folder"; error: string };

export async function action({ request, context }: ActionFunctionArgs) {
  // who is asking, before the form is read
  const actor = await requireQcViewer(request);
  const url = new URL(request.url);
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const language = readLanguage(request);
  if (!type.startsWith("multipart/form-data")) {
    const probe = await request.clone().formData();
    if (probe.get("intent") === "new-folder") {
      try {
        const product = await findFolderProduct(String(probe.get("productId") ?? ""));
        return redirectWithToast(
          listAddress(QC_MANAGER_PATH, url.searchParams, QC_MANAGER_DIALOG_PARAMS, { product: String(product.id) }),
          {
            message: translatorFor(language)("admin.qcManager.folderToast", { name: product.name }),
          },
        );
      } catch (error) {
        if (error instanceof ApiError && error.status < 500)
          return { intent: "new-folder", error: translateMessage(language, error.message) } satisfies NewFolderData;
        throw error;
      }
    }
  }
  const id = selectedId(url.searchParams);
  if (id === null || !(await productForQc(id))) {
    return redirectWithToast(listAddress(QC_MANAGER_PATH, url.searchParams, [...QC_MANAGER_DIALOG_PARAMS, "product"]), {
      type: "error",
      message: translateMessage(language, M.productNotFoundZh),
    });
  }
  return qcImagesAction(request, actor, {
    productId: id,
    back: listAddress(QC_MANAGER_PATH, url.searchParams, QC_MANAGER_DIALOG_PARAMS),
    clientIp: String(context.clientIp ?? ""),
  });
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.qcManager.pageTitle", noindex: true });

export default function QcManager() {
  const actionData = useActionData<typeof action>() as QcImagesActionData | NewFolderData | undefined;
  return <QcManagerPage data={useLoaderData<typeof loader>()} actionData={actionData} />;
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.loadProductsFailed} />;
}
