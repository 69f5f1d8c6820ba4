/**
 * A product's pictures. Without JavaScript the main picture and each thumbnail link to the
 * picture itself. With it, a thumbnail shows its picture in the main place, and the main
 * picture opens the viewer (zoom and pan, keys, swipes: app/components/ui/lightbox.tsx).
 */
import { useState } from "react";
import { Lightbox, preloadLightbox } from "~/components/ui/lightbox-lazy";
import { useT } from "~/i18n/i18n";
import { similarHref } from "./qc-gallery";

/** Whether a click is a plain one (a new tab or window is the browser's business). */
const plainClick = (event: { metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) =>
  !event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0;

export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const t = useT();
  const [current, setCurrent] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const main = images[current] ?? images[0];
  if (!main) {
    return (
      <div className="product-page__gallery">
        <span className="product-page__main-image product-page__main-image--none" aria-hidden="true">
          {t("shop.product.noImage")}
        </span>
      </div>
    );
  }
  return (
    <div className="product-page__gallery">
      <a
        href={main}
        className="product-page__main-image"
        onPointerEnter={preloadLightbox}
        onFocus={preloadLightbox}
        aria-label={
          images.length > 1
            ? t("shop.product.openViewerPicture", { name, number: current + 1, total: images.length })
            : t("shop.product.openViewer", { name })
        }
        onClick={(event) => {
          if (!plainClick(event)) return;
          event.preventDefault();
          setOpen(current);
        }}
      >
        {/* the page's largest picture (its LCP): asked for before the page's other pictures;
            lowercase, as React 18 writes an attribute it does not know */}
        <img src={main} alt={name} width={600} height={600} {...{ fetchpriority: "high" }} />
      </a>
      <a className="find-similar" href={similarHref(main)}>
        {t("shop.photoSearch.findSimilar")}
      </a>
      {images.length > 1 ? (
        <ul className="product-page__thumbs" aria-label={t("shop.product.allPictures")}>
          {images.map((image, index) => (
            <li key={`${index}-${image}`}>
              <a
                href={image}
                aria-label={t("shop.product.picture", { number: index + 1 })}
                aria-current={index === current || undefined}
                onClick={(event) => {
                  if (!plainClick(event)) return;
                  event.preventDefault();
                  setCurrent(index);
                }}
              >
                <img src={image} alt="" width={80} height={80} loading="lazy" decoding="async" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {open !== null ? (
        <Lightbox
          photos={images.map((image, index) => ({
            key: `${index}-${image}`,
            src: image,
            thumb: image,
            alt: t("shop.product.pictureOf", { name, number: index + 1, total: images.length }),
          }))}
          index={open}
          label={t("shop.product.picturesOf", { name })}
          onMove={(index) => {
            setOpen(index);
            setCurrent(index);
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </div>
  );
}
