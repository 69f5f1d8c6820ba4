import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useT } from "~/i18n/i18n";

/**
 * A modal panel chosen by the URL (e.g. ?modal=create), so it opens, shows errors and
 * closes without JavaScript; the close control is a link back to the page without it.
 * With JavaScript the panel takes focus and Escape closes it.
 */
export function AdminDialog({
  id,
  title,
  closeTo,
  children,
  wide,
}: {
  id: string;
  title: ReactNode;
  closeTo: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const t = useT();
  const navigate = useNavigate();
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeTo, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closeTo, navigate]);
  return (
    <div className="admin-dialog">
      <Link to={closeTo} className="admin-dialog__backdrop" aria-hidden="true" tabIndex={-1} preventScrollReset />
      <section
        ref={panel}
        id={id}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        className={wide ? "admin-dialog__panel admin-dialog__panel--wide" : "admin-dialog__panel"}
        tabIndex={-1}
      >
        <header className="admin-dialog__header">
          <h2 id={`${id}-title`}>{title}</h2>
          <Link to={closeTo} className="admin-dialog__close" preventScrollReset>
            {t("admin.common.close")}
          </Link>
        </header>
        <div className="admin-dialog__body">{children}</div>
      </section>
    </div>
  );
}
