import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "~/i18n/i18n";

/**
 * The photo search's file input. Without JavaScript it is a plain file input in a plain
 * form. With it, a photo can also be pasted (anywhere on the page) or dropped on the box,
 * and the chosen photo is shown before it is sent; a pasted or dropped photo is sent at once.
 */
export function PhotoPicker({ name, accept, error }: { name: string; accept: string; error: string | null }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  // pasting and dropping work once the page runs: only then does the hint offer them
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const show = useCallback((file: File | undefined) => {
    setPreview((old) => {
      if (old) URL.revokeObjectURL(old);
      return file ? URL.createObjectURL(file) : null;
    });
  }, []);

  /** Puts a pasted or dropped file in the input and sends the form. */
  const take = useCallback(
    (file: File | undefined) => {
      const field = input.current;
      if (!file || !field || !file.type.startsWith("image/")) return;
      const transfer = new DataTransfer();
      transfer.items.add(file);
      field.files = transfer.files;
      show(file);
      field.form?.requestSubmit();
    },
    [show],
  );

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = Array.from(event.clipboardData?.files ?? []).find((item) => item.type.startsWith("image/"));
      if (!file) return;
      event.preventDefault();
      take(file);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [take]);

  return (
    <div
      className={`photo-picker${over ? " photo-picker--over" : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        take(event.dataTransfer.files[0]);
      }}
    >
      <label htmlFor="photo-search-image">{t("shop.photoSearch.label")}</label>
      <input
        ref={input}
        id="photo-search-image"
        name={name}
        type="file"
        accept={accept}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "photo-search-image-error" : "photo-search-image-hint"}
        onChange={(event) => show(event.currentTarget.files?.[0])}
      />
      <p id="photo-search-image-hint" className="muted photo-picker__hint">
        {t("shop.photoSearch.hint")}
        {enhanced ? ` ${t("shop.photoSearch.hintPaste")}` : null}
      </p>
      {error ? (
        <p id="photo-search-image-error" className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      {preview ? <img className="photo-picker__preview" src={preview} alt={t("shop.photoSearch.preview")} /> : null}
    </div>
  );
}
