/**
 * The photo viewer, loaded when it is first opened: most visitors of a product page never
 * open it, so its code is not part of the page's scripts. A pointer over (or focus on) a
 * picture starts loading it, so a click usually opens it at once.
 */
import { lazy, Suspense } from "react";
import { useT } from "~/i18n/i18n";
import type { LightboxPhoto, LightboxProps } from "./lightbox";

export type { LightboxPhoto };

const load = () => import("./lightbox");
const Viewer = lazy(() => load().then((module) => ({ default: module.Lightbox })));

/** Starts loading the viewer's code (called on pointer-enter or focus of a picture). */
export function preloadLightbox(): void {
  void load();
}

export function Lightbox(props: LightboxProps) {
  const t = useT();
  return (
    <Suspense
      fallback={
        <div className="lightbox" role="dialog" aria-modal="true" aria-label={props.label} aria-busy="true">
          <p className="lightbox__loading">{t("common.loading")}</p>
        </div>
      }
    >
      <Viewer {...props} />
    </Suspense>
  );
}
