/**
 * The product page's QC photos: the gallery (approved photos in sets, newest set first)
 * and the upload box. Without JavaScript every thumbnail is a link to the photo and the
 * upload box is a plain multipart form. With it: a lightbox (arrow keys, Escape,
 * thumbnails, a counter, zoom), the selection's count and sizes checked before it is sent
 * (whether a file is an image is the server's to say: it reads the content), drag and
 * drop, and the form emptied once the server took the photos.
 */
import { dayText } from "~/lib/dates";
import { Form, useActionData } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { useCallback, useRef, useState, type DragEvent } from "react";
import { Lightbox, preloadLightbox } from "~/components/ui/lightbox-lazy";
import { SubmitButton } from "~/components/ui/submit-button";
import { useResetAfterSuccess } from "~/components/ui/use-reset-after-success";
import { checkSelection, QC_ACCEPT_ATTRIBUTE, QC_LIMITS } from "~/schemas/qc-selection";
import { useI18n, type Translate } from "~/i18n/i18n";
import { signInHref } from "~/lib/http";

export type QcPhoto = { id: number; url: string; thumb: string; width: number; height: number; thumbWidth: number; thumbHeight: number };
/** A set of photos sent together; `skuName` the option they show, when the sender said. */
export type QcSetView = { key: string; date: string; photos: QcPhoto[]; skuName?: string | null };
/** What the upload box knows about a logged-in viewer. */
export type QcUploaderView = {
  publishes: boolean;
  used: number;
  remaining: number | null;
  pending: QcPhoto[];
  rejected: Array<{ id: number; reason: string | null; date: string }>;
};
export type QcUploadActionData = { qcUpload: { errors: string[] } };

const FILE_MESSAGE =
  /^(.+): (Invalid file type\. Only JPG, PNG, WEBP allowed|File too large\. Maximum 10MB|You have already uploaded this photo for this product)$/;
const ONLY_MORE = /^You can only upload (\d+) more photos \((\d+)\/(\d+) already uploaded\)$/;

/**
 * A QC message (docs/product/storefront.md 5, the server's or the upload box's words) in the
 * reader's language: those that name a file or a count are read apart, the rest are message pairs.
 */
export function qcMessageText(text: string, t: Translate, message: (text: string) => string): string {
  const file = FILE_MESSAGE.exec(text);
  if (file) return `${file[1]}: ${message(file[2])}`;
  const more = ONLY_MORE.exec(text);
  if (more) return t("shop.qc.onlyMore", { remaining: Number(more[1]), used: Number(more[2]), limit: Number(more[3]) });
  return message(text);
}

/** "Find similar": the photo search from one of the catalogue's pictures (a plain link). */
export const similarHref = (image: string) => `/search/photo?image=${encodeURIComponent(image)}`;

/**
 * The QC photos in sets. With a SKU chosen (`?sku=`), the sets of that option come first;
 * when it has none, a line says so above the others'.
 */
export function QcGallery({ sets: given, title, chosenSku = null }: { sets: QcSetView[]; title: string; chosenSku?: string | null }) {
  const { t, language } = useI18n();
  const ofChosen = chosenSku ? given.filter((set) => set.skuName === chosenSku) : [];
  const sets = chosenSku ? [...ofChosen, ...given.filter((set) => set.skuName !== chosenSku)] : given;
  const photos = sets.flatMap((set) => set.photos);
  const [open, setOpen] = useState<number | null>(null);
  const close = useCallback(() => setOpen(null), []);
  let position = -1;
  return (
    <div className="qc-gallery">
      {photos.length === 0 ? <p className="muted">{t("shop.qc.noPhotos")}</p> : null}
      {chosenSku && photos.length && !ofChosen.length ? <p className="muted">{t("shop.qc.noneOfOption", { name: chosenSku })}</p> : null}
      {sets.map((set) => (
        <section key={set.key} className="qc-set" aria-label={t("shop.qc.setOf", { date: dayText(set.date, language) })}>
          <h3 className="qc-set__title">
            {`${t("shop.qc.setTitle", { count: set.photos.length })} · `}
            <time dateTime={set.date}>{dayText(set.date, language)}</time>
            {set.skuName ? <span className="qc-set__option">{` · ${t("shop.qc.option", { name: set.skuName })}`}</span> : null}
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
                      alt={t("shop.qc.photoOf", { number: index + 1, total: photos.length })}
                      loading="lazy"
                      decoding="async"
                    />
                  </a>
                  <a
                    className="find-similar"
                    href={similarHref(photo.url)}
                    aria-label={t("shop.photoSearch.findSimilarTo", {
                      picture: t("shop.qc.photoOf", { number: index + 1, total: photos.length }),
                    })}
                  >
                    {t("shop.photoSearch.findSimilar")}
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
            alt: t("shop.qc.photoOf", { number: n + 1, total: photos.length }),
          }))}
          index={open}
          label={t("shop.qc.photosOf", { name: title })}
          onMove={setOpen}
          onClose={close}
        />
      ) : null}
    </div>
  );
}

/** The upload box: a prompt for visitors, the allowance and a multipart form for users. */
export function QcUploadBox({
  action,
  viewer,
  productPath,
  skus = [],
  chosenSku = null,
}: {
  action: string;
  viewer: QcUploaderView | null;
  productPath: string;
  /** the product's SKU names: the sender says which option the photos show */
  skus?: string[];
  chosenSku?: string | null;
}) {
  const { t, message } = useI18n();
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
    const back = `${productPath}#qc-upload`;
    return (
      <div className="qc-upload qc-upload--visitor" id="qc-upload">
        <p>
          {`${t("shop.qc.visitorQuestion")} `}
          <PageLink to={signInHref(back, "register")}>{t("shop.qc.visitorRegister")}</PageLink>
          {` ${t("shop.qc.visitorOr")} `}
          <PageLink to={signInHref(back)}>{t("shop.qc.visitorLogIn")}</PageLink>
          {` ${t("shop.qc.visitorToUpload")}`}
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
      <h3>{t("shop.qc.uploadTitle")}</h3>
      {viewer.publishes ? (
        <p className="muted">{t("shop.qc.publishedAtOnce")}</p>
      ) : full ? (
        <p className="notice notice--info">{t("shop.qc.limitReached", { limit: QC_LIMITS.perUserPerProduct })}</p>
      ) : (
        <p className="muted">
          {/* the allowance in the spec's words (docs/product/storefront.md 5) */}
          <span className="qc-upload__allowance">
            {t("shop.qc.onlyMore", {
              remaining: viewer.remaining ?? QC_LIMITS.perUserPerProduct,
              used: viewer.used,
              limit: QC_LIMITS.perUserPerProduct,
            })}
          </span>
          {t("shop.qc.moderationNote")}
        </p>
      )}
      {errors.length ? (
        <ul className="form-errors qc-upload__errors" role="alert">
          {errors.map((error) => (
            <li key={error}>{qcMessageText(error, t, message)}</li>
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
            <span>{chosen ? t("shop.qc.chooseChosen", { count: chosen }) : t("shop.qc.choose")}</span>
            <input ref={input} type="file" name="photos" accept={QC_ACCEPT_ATTRIBUTE} multiple required onChange={check} />
          </label>
          {skus.length > 1 ? (
            <label className="qc-upload__option">
              <span>{t("shop.qc.whichOption")}</span>
              <select name="skuName" defaultValue={chosenSku ?? ""}>
                <option value="">{t("shop.qc.anyOption")}</option>
                {skus.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <SubmitButton className="button" pendingText={t("shop.qc.uploading")}>
            {t("shop.qc.upload")}
          </SubmitButton>
        </Form>
      )}
      {viewer.pending.length ? (
        <div className="qc-upload__mine">
          <p>
            <strong>{t("shop.qc.waiting", { count: viewer.pending.length })}</strong>
          </p>
          <ul className="qc-grid qc-grid--small">
            {viewer.pending.map((photo) => (
              <li key={photo.id}>
                <a href={photo.url} className="qc-thumb qc-thumb--pending">
                  <img
                    src={photo.thumb}
                    width={photo.thumbWidth || undefined}
                    height={photo.thumbHeight || undefined}
                    alt={t("shop.qc.pendingAlt")}
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
          {t("shop.qc.rejected", { count: viewer.rejected.length })}
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
