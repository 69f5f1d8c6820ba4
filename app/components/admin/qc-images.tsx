/**
 * The back office's QC photo pieces (app/controllers/admin-qc.server.ts): the upload form and a
 * product's photos with select, delete selected (a confirmation step) and delete one.
 * Without JavaScript: plain forms and links; with it, a select-all box appears.
 */
import { Form } from "@remix-run/react";
import { useRef } from "react";
import { formatDate } from "~/components/admin/format";
import { SubmitButton } from "~/components/ui/submit-button";
import { useResetAfterSuccess } from "~/components/ui/use-reset-after-success";
import { QC_ACCEPT_ATTRIBUTE, QC_LIMITS } from "~/schemas/qc-rules";
import { AdminConfirmDialog, AdminListBody, DeleteLink } from "~/components/admin/admin-list";
import { useI18n, useT } from "~/i18n/i18n";

export type AdminQcImage = {
  id: number;
  url: string;
  thumb: string;
  thumbWidth: number;
  thumbHeight: number;
  status: "pending" | "approved" | "rejected";
  uploader: string | null;
  date: string;
};

export type QcImagesActionData =
  | { intent: "upload"; errors: string[] }
  | { intent: "delete-confirm"; confirm: { ids: number[] } }
  | { intent: "delete-confirm" | "delete"; error: string };

export function AdminQcUpload({ action, errors }: { action: string; errors: string[] }) {
  // published: the form comes back empty (with JavaScript too), the files are not kept for a second press
  const { t, message } = useI18n();
  const formRef = useRef<HTMLFormElement>(null);
  const markSent = useResetAfterSuccess(formRef);
  return (
    <Form ref={formRef} method="post" action={action} encType="multipart/form-data" className="admin-qc-upload" onSubmit={markSent}>
      <label className="admin-qc-upload__drop">
        <span>{t("admin.qc.uploadHelp", { size: QC_LIMITS.fileBytes / 1024 / 1024, count: QC_LIMITS.filesPerBatch })}</span>
        <input type="file" name="qcImages" accept={QC_ACCEPT_ATTRIBUTE} multiple required />
      </label>
      {errors.length ? (
        <ul className="form-errors" role="alert">
          {errors.map((error) => (
            <li key={error}>{message(error)}</li>
          ))}
        </ul>
      ) : null}
      <SubmitButton className="button" pendingText={t("admin.qc.uploading")}>
        {t("admin.qc.uploadPhotos")}
      </SubmitButton>
    </Form>
  );
}

/** A product's photos: tiles with a status, checkboxes and "Delete selected" when allowed. */
export function AdminQcImages({
  images,
  canDelete,
  action,
  returnTo,
  deleteHref,
  error,
}: {
  images: AdminQcImage[];
  canDelete: boolean;
  action: string;
  returnTo: string;
  deleteHref: (imageId: number) => string;
  error?: string | null;
}) {
  const { t, message } = useI18n();
  return (
    <AdminListBody
      items={images}
      itemKey={(image) => image.id}
      empty={<p className="muted">{t("admin.qc.noPhotos")}</p>}
      // nothing to select without the permission to delete
      selection={
        canDelete
          ? {
              action,
              hidden: { returnTo },
              bar: (
                <SubmitButton name="intent" value="delete-confirm" className="button button--danger button--small" pendingText="…">
                  {t("admin.common.deleteSelected")}
                </SubmitButton>
              ),
              notice: error ? (
                <p className="notice notice--error" role="alert">
                  {message(error)}
                </p>
              ) : null,
            }
          : null
      }
      renderItems={(shown) => (
        <ul className="admin-qc-grid">
          {shown.map((image) => (
            <li key={image.id} className={`admin-qc-tile admin-qc-tile--${image.status}`}>
              <a href={image.url} target="_blank" rel="noreferrer" className="admin-qc-tile__image">
                <img
                  src={image.thumb}
                  width={image.thumbWidth || undefined}
                  height={image.thumbHeight || undefined}
                  alt={t("admin.qc.photoAlt", { id: image.id })}
                  loading="lazy"
                  decoding="async"
                />
              </a>
              <div className="admin-qc-tile__meta">
                {canDelete ? (
                  <label className="admin-check">
                    <input type="checkbox" name="ids" value={image.id} aria-label={t("admin.qc.selectPhoto", { id: image.id })} />
                    <span className="visually-hidden">{t("admin.common.select")}</span>
                  </label>
                ) : null}
                <span className={`admin-badge ${image.status === "pending" ? "admin-badge--warning" : "admin-badge--success"}`}>
                  {image.status === "pending" ? t("admin.qc.pending") : t("admin.status.approved")}
                </span>
                {canDelete ? <DeleteLink to={deleteHref(image.id)} name={t("admin.qc.photoName", { id: image.id })} /> : null}
              </div>
              <p className="admin-qc-tile__by muted">
                {image.uploader ?? t("admin.qc.staff")} · {formatDate(image.date)}
              </p>
            </li>
          ))}
        </ul>
      )}
    />
  );
}

/** The two confirmation dialogs of deleting photos (one, chosen by the URL; or a selection). */
export function QcDeleteDialogs({
  action,
  closeTo,
  confirmOne,
  confirmSelection,
}: {
  action: string;
  closeTo: string;
  confirmOne: AdminQcImage | null;
  confirmSelection: number[] | null;
}) {
  const t = useT();
  return (
    <>
      {confirmOne ? (
        <AdminConfirmDialog
          id="delete-qc-image"
          title={t("admin.qc.deleteTitle")}
          closeTo={closeTo}
          action={action}
          intent="delete-one"
          fields={{ imageId: confirmOne.id, returnTo: closeTo }}
          submitLabel={t("admin.qc.deletePhoto")}
        >
          <p>
            <img src={confirmOne.thumb} alt="" width={120} className="admin-qc-confirm-thumb" />
          </p>
          <p>{t("admin.qc.deleteConfirm")}</p>
        </AdminConfirmDialog>
      ) : null}
      {confirmSelection ? (
        <AdminConfirmDialog
          id="delete-qc-images"
          title={t("admin.qc.bulkDeleteTitle", { count: confirmSelection.length })}
          closeTo={closeTo}
          action={action}
          intent="delete"
          fields={{ ids: confirmSelection, returnTo: closeTo }}
          submitLabel={t("admin.qc.bulkDeleteSubmit", { count: confirmSelection.length })}
        >
          <p>{t("admin.qc.bulkDeleteConfirm")}</p>
        </AdminConfirmDialog>
      ) : null}
    </>
  );
}
