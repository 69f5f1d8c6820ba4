import { useEffect, useRef, useState, type RefObject } from "react";
import { useT } from "~/i18n/i18n";

/** Whether the page has been hydrated (JavaScript runs): enhancements show only then. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * A "select all" box for a form's `ids` checkboxes (JavaScript only: without it each row
 * is ticked by hand). Answers the form's ref and the box itself.
 */
export function useSelectAll<T extends HTMLFormElement>(): { form: RefObject<T>; selectAll: JSX.Element | null } {
  const t = useT();
  const hydrated = useHydrated();
  const form = useRef<T>(null);
  const [checked, setChecked] = useState(false);
  const toggle = (next: boolean) => {
    setChecked(next);
    form.current?.querySelectorAll<HTMLInputElement>('input[name="ids"]').forEach((box) => (box.checked = next));
  };
  const selectAll = hydrated ? (
    <label className="admin-check">
      <input type="checkbox" checked={checked} onChange={(event) => toggle(event.currentTarget.checked)} />
      {t("admin.common.selectAllOnPage")}
    </label>
  ) : null;
  return { form, selectAll };
}
