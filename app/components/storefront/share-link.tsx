import { useEffect, useState } from "react";
import { useT } from "~/i18n/i18n";

/**
 * Share a page: without JavaScript a plain link to it (long-press or right-click to copy);
 * with it a button that opens the phone's share sheet (Web Share) or, where there is
 * none, copies the address and says so.
 */
export function ShareLink({ url, title }: { url: string; title: string }) {
  const t = useT();
  const [mode, setMode] = useState<"link" | "share" | "copy">("link");
  const [status, setStatus] = useState("");
  useEffect(() => {
    setMode(typeof navigator.share === "function" ? "share" : navigator.clipboard ? "copy" : "link");
  }, []);
  if (mode === "link") {
    return (
      <p className="share-link">
        <a href={url} rel="bookmark">
          {t("shop.share.link")}
        </a>
      </p>
    );
  }
  const act = async () => {
    try {
      if (mode === "share") {
        await navigator.share({ title, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      setStatus(t("shop.share.copied"));
    } catch (error) {
      // the shopper closed the share sheet: nothing to say
      if ((error as Error).name !== "AbortError") setStatus(t("shop.share.copyThis", { url }));
    }
  };
  return (
    <p className="share-link">
      <button type="button" className="button--secondary button--small" onClick={() => void act()}>
        {mode === "share" ? t("shop.share.share") : t("shop.share.copyLink")}
      </button>{" "}
      {/* a polite live region, not role=status: the page's toast is its one status */}
      <span aria-live="polite" className="share-link__status">
        {status}
      </span>
    </p>
  );
}
