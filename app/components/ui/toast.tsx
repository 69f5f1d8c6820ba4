import { useEffect, useState } from "react";
import { useI18n } from "~/i18n/i18n";

export type ToastData = { id: string; type: "success" | "error" | "info"; title?: string; message: string; details?: string[] };

/**
 * A flash message. Without JavaScript it stays until the next page and can be closed
 * with the (CSS-only) close control; with JavaScript it also fades after a few seconds.
 */
export function ToastView({ toast }: { toast: ToastData }) {
  const { t, message } = useI18n();
  const [visible, setVisible] = useState(true);
  // errors, and messages with a list to read, stay until closed
  const stays = toast.type === "error" || Boolean(toast.details?.length);
  useEffect(() => {
    if (stays) return;
    const timer = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(timer);
  }, [toast.id, stays]);
  if (!visible) return null;
  const inputId = `toast-${toast.id}`;
  return (
    <div className="toast-region">
      <input type="checkbox" id={inputId} className="toast-dismiss visually-hidden" aria-label={t("common.toast.close")} />
      <div className={`toast toast--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
        <div className="toast__body">
          {toast.title ? <strong className="toast__title">{message(toast.title)}</strong> : null}
          <span className="toast__message">{message(toast.message)}</span>
          {toast.details?.length ? (
            <ul className="toast__details">
              {toast.details.map((line) => (
                <li key={line}>{message(line)}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <label htmlFor={inputId} className="toast__close" title={t("common.close")}>
          <span aria-hidden="true">×</span>
        </label>
      </div>
    </div>
  );
}
