/**
 * What the back office's QC screens share on the server (the product's QC page and the
 * QC file manager, docs/product/admin.md 2): who may see them, the images as the screens show
 * them, and the action that uploads (multipart) or deletes (one, or a selection after a
 * confirmation step), each checked on the server.
 */
import { data } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";
import { canAny, QC_PERMISSIONS, sidebarRules, type Access } from "~/lib/permissions";
import { requireAdmin, requireMore } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { AdminQcImage, QcImagesActionData } from "~/components/admin/qc-images";
import { deleteSelectionSchema } from "~/schemas/qc";
import { QC_MESSAGES as M } from "~/schemas/qc-rules";
import { deleteQcImage, deleteQcImages, qcImagesForAdmin, receiveQcUpload, type QcImage } from "~/services/qc.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";

/** Back-office access and the QC section of the sidebar (any qc.* permission, or the admin role). */
export async function requireQcViewer(request: Request) {
  const actor = await requireAdmin(request);
  if (!sidebarRules.qc(actor.access))
    throw new Response("You do not have permission to manage QC photos.", { status: 403, statusText: "Forbidden" });
  return actor;
}

export function qcAllowed(access: Access) {
  return {
    upload: canAny(access, QC_PERMISSIONS.upload),
    delete: canAny(access, QC_PERMISSIONS.delete),
    review: canAny(access, QC_PERMISSIONS.review),
  };
}

export function toAdminQcImage(image: QcImage): AdminQcImage {
  return {
    id: image.id,
    url: image.imageUrl ?? "",
    thumb: image.thumbUrl ?? image.imageUrl ?? "",
    thumbWidth: image.thumbWidth ?? 0,
    thumbHeight: image.thumbHeight ?? 0,
    status: image.status,
    uploader: image.uploaderName,
    date: image.createdAt,
  };
}

export async function adminImagesOf(productId: number): Promise<AdminQcImage[]> {
  return (await qcImagesForAdmin(productId)).map(toAdminQcImage);
}

const isMultipart = (request: Request) => (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");

/**
 * The QC screens' action for one product: an upload (multipart `qcImages`, published at
 * once), or a delete (`delete-one`; `delete-confirm` then `delete` for a selection).
 * Success goes back to `back` with a notice; problems come back as action data.
 */
export async function qcImagesAction(
  request: Request,
  actor: Awaited<ReturnType<typeof requireQcViewer>>,
  target: { productId: number; back: string; clientIp: string },
): Promise<Response | QcImagesActionData | ReturnType<typeof data<QcImagesActionData>>> {
  // the notices in the reader's language (the services' words are the /api's)
  const language = readLanguage(request);
  const t = translatorFor(language);
  const say = (text: string) => translateMessage(language, text);
  if (isMultipart(request)) {
    requireMore(actor, { anyOf: QC_PERMISSIONS.upload });
    try {
      const outcome = await receiveQcUpload(request, target.productId, actor, { field: "qcImages", clientIp: target.clientIp });
      if (outcome.uploaded.some((image) => !image.imageUrl))
        return redirectWithToast(target.back, { type: "error", message: say(M.uploadedNoUrl) });
      const skipped = outcome.errors.map((error) => say(error.message)).join(" ");
      const done = t("admin.qc.published", { count: outcome.uploaded.length });
      return redirectWithToast(target.back, {
        type: skipped ? "info" : "success",
        message: skipped ? `${done} ${t("admin.qc.notUploaded", { list: skipped })}` : done,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 403) throw error;
      const body: QcImagesActionData = {
        intent: "upload",
        errors: [...new Set([...(error.errors ?? []).map((item) => item.message), error.message])],
      };
      return data(body, { status: error.status });
    }
  }

  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "delete-one") {
    requireMore(actor, { anyOf: QC_PERMISSIONS.delete });
    try {
      await deleteQcImage(Number(formData.get("imageId")), actor);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500)
        return redirectWithToast(target.back, { type: "error", message: `${say(M.deleteFailed)}: ${say(error.message)}` });
      throw error;
    }
    return redirectWithToast(target.back, { message: t("admin.qc.deleted", { count: 1 }) });
  }
  if (intent === "delete-confirm" || intent === "delete") {
    requireMore(actor, { anyOf: QC_PERMISSIONS.delete });
    const parsed = deleteSelectionSchema.safeParse({ ids: formData.getAll("ids") });
    if (!parsed.success) return { intent, error: parsed.error.issues[0]?.message ?? M.chooseToDelete };
    const ids = [...new Set(parsed.data.ids)];
    if (intent === "delete-confirm") {
      const mine = new Set((await qcImagesForAdmin(target.productId)).map((image) => image.id));
      const found = ids.filter((id) => mine.has(id));
      if (found.length === 0) return { intent, error: M.chooseToDelete };
      return { intent, confirm: { ids: found } };
    }
    const outcome = await deleteQcImages(ids, actor);
    if (outcome.done === 0) return redirectWithToast(target.back, { type: "error", message: say(M.deleteFailed) });
    const failures = outcome.failed.length ? ` ${t("admin.qc.batchFailed", { count: outcome.failed.length })}` : "";
    return redirectWithToast(target.back, {
      type: failures ? "info" : "success",
      message: t("admin.qc.deleted", { count: outcome.done }) + failures,
    });
  }
  throw new Response("Unknown action", { status: 400 });
}
