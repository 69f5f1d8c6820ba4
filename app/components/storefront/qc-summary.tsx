import { dayText } from "~/lib/dates";
import { useI18n } from "~/i18n/i18n";

/** "12 QC photos · 3 Nov 2026", or that there are none yet. */
export function QcSummary({ count, latestAt, className }: { count: number; latestAt: string | null; className?: string }) {
  const { t, language } = useI18n();
  if (count === 0) return <span className={`qc-summary qc-summary--none ${className ?? ""}`.trim()}>{t("shop.qc.noneYet")}</span>;
  return (
    <span className={`qc-summary ${className ?? ""}`.trim()}>
      {t("shop.qc.count", { count })}
      {latestAt ? (
        <>
          {" · "}
          <time dateTime={latestAt} title={t("shop.qc.newestSet")}>
            {dayText(latestAt, language)}
          </time>
        </>
      ) : null}
    </span>
  );
}
