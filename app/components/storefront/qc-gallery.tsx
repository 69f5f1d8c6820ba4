/**
 * The product page's QC photos: the gallery (approved photos in sets, newest set first)
 * and the upload box. Without JavaScript every thumbnail is a link to the photo and the
 * upload box is a plain multipart form. With it: a lightbox (arrow keys, Escape,
 * thumbnails, a counter, zoom), the selection's count and sizes checked before it is sent
 * (whether a file is an image is the server's to say: it reads the content), drag and
 * drop, and the form emptied once the server took the photos.
 */
import { dayText } from "~/lib/dates";
import { Form, Link, useActionData } from "@remix-run/react";
import { useCallback, useRef, useState, type DragEvent } from "react";
import { Lightbox, preloadLightbox } from "~/components/ui/lightbox-lazy";
import { SubmitButton } from "~/components/ui/submit-button";
import { useResetAfterSuccess } from "~/components/ui/use-reset-after-success";
import { checkSelection, QC_ACCEPT_ATTRIBUTE, QC_LIMITS, QC_MESSAGES } from "~/schemas/qc-rules";

export type QcPhoto = { id: number; url: string; thumb: string; width: number; height: number; thumbWidth: number; thumbHeight: number };
export type QcSetView = { key: string; date: string; photos: QcPhoto[] };
/** What the upload box knows about a logged-in viewer. */
export type QcUploaderView = {
  publishes: boolean;
  used: number;
  remaining: number | null;
  pending: QcPhoto[];
  rejected: Array<{ id: number; reason: string | null; date: string }>;
};
export type QcUploadActionData = { qcUpload: { errors: string[] } };

export function QcGallery({ sets, title }: { sets: QcSetView[]; title: string }) {
  const photos = sets.flatMap((set) => set.photos);
  const [open, setOpen] = useState<number | null>(null);
  const close = useCallback(() => setOpen(null), []);
  let position = -1;
  return (
    <div className="qc-gallery">
      {photos.length === 0 ? <p className="muted">{QC_MESSAGES.noPhotos}</p> : null}
      {sets.map((set) => (
        <section key={set.key} className="qc-set" aria-label={`QC set of ${dayText(set.date)}`}>
          <h3 className="qc-set__title">
            QC set · {set.photos.length} photo{set.photos.length === 1 ? "" : "s"} · <time dateTime={set.date}>{dayText(set.date)}</time>
          </h3>
          <ul className="qc-grid">
            {set.photos.map((photo) => {
              position += 1;
              const index = position;
              return (
                <li key={photo.id}>
                  <a
                    href={photo.url}
                    className="qc-thumb"
                    onPointerEnter={preloadLightbox}
                    onFocus={preloadLightbox}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                      event.preventDefault();
                      setOpen(index);
                    }}
                  >
                    <img
                      src={photo.thumb}
                      width={photo.thumbWidth || undefined}
                      height={photo.thumbHeight || undefined}
                      alt={`QC photo ${index + 1} of ${photos.length}`}
                      loading="lazy"
                      decoding="async"
                    />
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      {open !== null ? (
        <Lightbox
          photos={photos.map((photo, n) => ({
            key: photo.id,
            src: photo.url,
            thumb: photo.thumb,
            width: photo.width,
            height: photo.height,
            thumbWidth: photo.thumbWidth,
            thumbHeight: photo.thumbHeight,
            alt: `QC photo ${n + 1} of ${photos.length}`,
          }))}
          index={open}
          label={`QC photos of ${title}`}
          onMove={setOpen}
          onClose={close}
        />
      ) : null}
    </div>
  );
}

/** The upload box: a prompt for visitors, the allowance and a multipart form for users. */
export function QcUploadBox({ action, viewer, productPath }: { action: string; viewer: QcUploaderView | null; productPath: string }) {
  const actionData = useActionData<QcUploadActionData>();
  const input = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<number>(0);
  const [dragging, setDragging] = useState(false);
  const markSent = useResetAfterSuccess(formRef, () => {
    setChosen(0);
    setClientErrors(null);
  });

  if (!viewer) {
    const back = encodeURIComponent(`${productPath}#qc-upload`);
    return (
      <div className="qc-upload qc-upload--visitor" id="qc-upload">
        <p>
          Have photos of this item from your agent's warehouse? <Link to={`/register?redirectTo=${back}`}>Register</Link> or{" "}
          <Link to={`/login?redirectTo=${back}`}>log in</Link> to upload QC photos.
        </p>
      </div>
    );
  }

  const used = viewer.publishes ? null : viewer.used;
  const check = () => {
    const files = Array.from(input.current?.files ?? []);
    setChosen(files.length);
    if (files.length === 0) {
      setClientErrors(null);
      return true;
    }
    const result = checkSelection(files, { used });
    setClientErrors(result.errors.length ? result.errors : null);
    // files refused one by one are skipped by the server too; a selection with none to send is not sent
    return result.valid > 0;
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!input.current || !event.dataTransfer.files.length) return;
    input.current.files = event.dataTransfer.files;
    check();
  };

  const serverErrors = actionData?.qcUpload.errors ?? [];
  const errors = clientErrors ?? serverErrors;
  const full = viewer.remaining === 0;
  return (
    <div className="qc-upload" id="qc-upload">
      <h3>Upload QC photos</h3>
      {viewer.publishes ? (
        <p className="muted">Your photos are published at once.</p>
      ) : full ? (
        <p className="notice notice--info">{QC_MESSAGES.limitReached}</p>
      ) : (
        <p className="muted">
          {/* the allowance in the spec's words (docs/product/storefront.md 5) */}
          <span className="qc-upload__allowance">{QC_MESSAGES.onlyMore(viewer.remaining ?? QC_LIMITS.perUserPerProduct, viewer.used)}</span>
          . Photos wait for a moderator before they appear. JPG, PNG or WEBP, up to 10 MB each, 10 at a time.
        </p>
      )}
      {errors.length ? (
        <ul className="form-errors qc-upload__errors" role="alert">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      {full ? null : (
        <Form
          ref={formRef}
          method="post"
          action={action}
          encType="multipart/form-data"
          className={`qc-upload__form${dragging ? " qc-upload__form--dragging" : ""}`}
          onSubmit={(event) => {
            if (!check()) event.preventDefault();
            else markSent();
          }}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <label className="qc-upload__drop">
            <span>Choose photos{chosen ? ` (${chosen} chosen)` : ""}, or drop them here</span>
            <input ref={input} type="file" name="photos" accept={QC_ACCEPT_ATTRIBUTE} multiple required onChange={check} />
          </label>
          <SubmitButton className="button" pendingText="Uploading…">
            Upload photos
          </SubmitButton>
        </Form>
      )}
      {viewer.pending.length ? (
        <div className="qc-upload__mine">
          <p>
            <strong>Waiting for review ({viewer.pending.length})</strong>
          </p>
          <ul className="qc-grid qc-grid--small">
            {viewer.pending.map((photo) => (
              <li key={photo.id}>
                <a href={photo.url} className="qc-thumb qc-thumb--pending">
                  <img
                    src={photo.thumb}
                    width={photo.thumbWidth || undefined}
                    height={photo.thumbHeight || undefined}
                    alt="Your photo, pending review"
                    loading="lazy"
                    decoding="async"
                  />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {viewer.rejected.length ? (
        <p className="muted">
          {viewer.rejected.length} of your photos {viewer.rejected.length === 1 ? "was" : "were"} not approved
          {viewer.rejected.some((item) => item.reason)
            ? `: ${viewer.rejected
                .map((item) => item.reason)
                .filter(Boolean)
                .join("; ")}`
            : "."}
        </p>
      ) : null}
    </div>
  );
}
