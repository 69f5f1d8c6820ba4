/**
 * A full-screen photo viewer for JavaScript (without it, the pages link to each photo):
 * the photo at full resolution, a counter and thumbnails; arrow keys, swipes and the
 * side buttons move between photos; Escape closes. Zoom to judge stitching and tags:
 * the + and − buttons or keys, a double click or double tap (at that point), the wheel,
 * a pinch; a tap or click on the photo zooms in there (again: back out); drag to look around
 * while zoomed; 0 or "Fit" goes back.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type WheelEvent as ReactWheelEvent,
} from "react";
import { useT } from "~/i18n/i18n";

export type LightboxPhoto = {
  key: string | number;
  src: string;
  thumb: string;
  width?: number;
  height?: number;
  thumbWidth?: number;
  thumbHeight?: number;
  alt: string;
};

const MIN_ZOOM = 1;
const MAX_ZOOM = 6;
const STEP = 1.5;
/** a drag shorter than this is a tap; a horizontal one longer than this at 1× moves to the next photo */
const SWIPE_PX = 50;

type View = { zoom: number; x: number; y: number };
const FIT: View = { zoom: 1, x: 0, y: 0 };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export type LightboxProps = { photos: LightboxPhoto[]; index: number; label: string; onMove: (index: number) => void; onClose: () => void };

export function Lightbox({ photos, index, label, onMove, onClose }: LightboxProps) {
  const t = useT();
  const dialog = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>(FIT);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; view: View; pinch: number | null; moved: boolean } | null>(null);
  const lastTap = useRef(0);
  const photo = photos[index];
  const count = photos.length;
  const move = useCallback((step: number) => onMove((index + step + count) % count), [index, count, onMove]);

  // a new photo starts fitted
  useEffect(() => setView(FIT), [index]);

  /**
   * Zooms to `zoom` (or what it makes of the zoom now), keeping the stage point (px from its
   * centre) where it is. Steps read the zoom now: two before a render add up.
   */
  const zoomAt = useCallback((zoom: number | ((now: number) => number), point: { x: number; y: number } = { x: 0, y: 0 }) => {
    setView((current) => {
      const next = clamp(typeof zoom === "function" ? zoom(current.zoom) : zoom, MIN_ZOOM, MAX_ZOOM);
      if (next === MIN_ZOOM) return FIT;
      const ratio = next / current.zoom;
      return { zoom: next, x: point.x - (point.x - current.x) * ratio, y: point.y - (point.y - current.y) * ratio };
    });
  }, []);

  const stagePoint = (clientX: number, clientY: number) => {
    const box = stage.current?.getBoundingClientRect();
    return box ? { x: clientX - box.left - box.width / 2, y: clientY - box.top - box.height / 2 } : { x: 0, y: 0 };
  };

  // The keys act on this render's state: the listener is attached once and calls the
  // handler of the latest render, which is in place before the next key (an effect that
  // re-attached the listener would run after paint with Preact, decision 042, and a key
  // pressed before it would act on the photo or zoom before).
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onKey.current = (event: KeyboardEvent) => {
    if (event.key === "Escape") onClose();
    else if (event.key === "+" || event.key === "=") zoomAt((now) => now * STEP);
    else if (event.key === "-") zoomAt((now) => now / STEP);
    else if (event.key === "0") setView(FIT);
    else if (view.zoom > 1 && event.key.startsWith("Arrow")) {
      // zoomed in, the arrows look around
      const dx = event.key === "ArrowLeft" ? 80 : event.key === "ArrowRight" ? -80 : 0;
      const dy = event.key === "ArrowUp" ? 80 : event.key === "ArrowDown" ? -80 : 0;
      setView((current) => ({ ...current, x: current.x + dx, y: current.y + dy }));
    } else if (event.key === "ArrowLeft") move(-1);
    else if (event.key === "ArrowRight") move(1);
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    dialog.current?.focus();
    return () => {
      document.body.style.overflow = overflow;
      before?.focus();
    };
  }, []);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest("button, a")) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    gesture.current = {
      startX: event.clientX,
      startY: event.clientY,
      view,
      pinch: points.length === 2 ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : null,
      moved: false,
    };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    const current = gesture.current;
    if (points.length === 2 && current.pinch) {
      const distance = Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y);
      const middle = stagePoint((points[0].x + points[1].x) / 2, (points[0].y + points[1].y) / 2);
      current.moved = true;
      const zoom = clamp(current.view.zoom * (distance / current.pinch), MIN_ZOOM, MAX_ZOOM);
      const ratio = zoom / current.view.zoom;
      setView(
        zoom === MIN_ZOOM
          ? FIT
          : { zoom, x: middle.x - (middle.x - current.view.x) * ratio, y: middle.y - (middle.y - current.view.y) * ratio },
      );
      return;
    }
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (Math.hypot(dx, dy) > 4) current.moved = true;
    if (current.view.zoom > 1) setView({ ...current.view, x: current.view.x + dx, y: current.view.y + dy });
  };

  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const current = gesture.current;
    pointers.current.delete(event.pointerId);
    if (!current) return;
    if (pointers.current.size > 0) {
      // one finger of a pinch lifted: go on from here with the other
      const [rest] = [...pointers.current.values()];
      gesture.current = { startX: rest.x, startY: rest.y, view, pinch: null, moved: true };
      return;
    }
    gesture.current = null;
    const dx = event.clientX - current.startX;
    if (!current.moved) {
      // a tap or a click on the photo zooms in there, or back out (the second tap of a double
      // tap is the same gesture: it does not undo the first); the arrows are buttons of their own
      if ((event.target as Element).closest("button")) return;
      const now = event.timeStamp;
      if (now - lastTap.current < 300) {
        lastTap.current = 0;
        return;
      }
      lastTap.current = now;
      if (view.zoom > 1) setView(FIT);
      else zoomAt(2.5, stagePoint(event.clientX, event.clientY));
      return;
    }
    if (current.view.zoom === 1 && current.pinch === null && Math.abs(dx) > SWIPE_PX && count > 1) move(dx < 0 ? 1 : -1);
  };

  // (the page's scrolling is stopped by the listener below: React's is passive)
  const onWheel = (event: ReactWheelEvent<HTMLDivElement>) => {
    zoomAt((now) => now * (event.deltaY < 0 ? 1.2 : 1 / 1.2), stagePoint(event.clientX, event.clientY));
  };

  // the wheel must be able to prevent the page's scrolling: a passive listener cannot
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const stop = (event: WheelEvent) => event.preventDefault();
    element.addEventListener("wheel", stop, { passive: false });
    return () => element.removeEventListener("wheel", stop);
  }, []);

  if (!photo) return null;
  const zoomed = view.zoom > 1;
  return (
    <div className="lightbox" role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} ref={dialog}>
      <div className="lightbox__bar">
        <span className="lightbox__counter" aria-live="polite">
          {index + 1} / {count}
        </span>
        <span className="lightbox__zoom" role="group" aria-label={t("common.lightbox.zoom")}>
          <button type="button" onClick={() => zoomAt((now) => now / STEP)} disabled={!zoomed} aria-label={t("common.lightbox.zoomOut")}>
            −
          </button>
          <output className="lightbox__zoom-level" aria-label={t("common.lightbox.zoomLevel")}>
            {Math.round(view.zoom * 100)}%
          </output>
          <button
            type="button"
            onClick={() => zoomAt((now) => now * STEP)}
            disabled={view.zoom >= MAX_ZOOM}
            aria-label={t("common.lightbox.zoomIn")}
          >
            +
          </button>
          <button type="button" onClick={() => setView(FIT)} disabled={!zoomed}>
            {t("common.lightbox.fit")}
          </button>
        </span>
        <a className="lightbox__open" href={photo.src} target="_blank" rel="noreferrer">
          {t("common.lightbox.openFullSize")}
        </a>
        <button type="button" className="lightbox__close" onClick={onClose} aria-label={t("common.lightbox.close")}>
          ×
        </button>
      </div>
      <div
        className={`lightbox__stage${zoomed ? " lightbox__stage--zoomed" : ""}`}
        ref={stage}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
      >
        {count > 1 && !zoomed ? (
          <button
            type="button"
            className="lightbox__nav lightbox__nav--prev"
            onClick={() => move(-1)}
            aria-label={t("common.lightbox.previous")}
          >
            ‹
          </button>
        ) : null}
        <img
          key={photo.key}
          src={photo.src}
          width={photo.width || undefined}
          height={photo.height || undefined}
          alt={photo.alt}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }}
        />
        {count > 1 && !zoomed ? (
          <button
            type="button"
            className="lightbox__nav lightbox__nav--next"
            onClick={() => move(1)}
            aria-label={t("common.lightbox.next")}
          >
            ›
          </button>
        ) : null}
      </div>
      {count > 1 ? (
        <ul className="lightbox__thumbs" aria-label={t("common.lightbox.allPhotos")}>
          {photos.map((item, position) => (
            <li key={item.key}>
              <button
                type="button"
                onClick={() => onMove(position)}
                aria-current={position === index || undefined}
                aria-label={t("common.lightbox.photo", { number: position + 1 })}
              >
                <img
                  src={item.thumb}
                  width={item.thumbWidth || undefined}
                  height={item.thumbHeight || undefined}
                  alt=""
                  loading="lazy"
                  decoding="async"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
