import { dayText } from "~/lib/dates";

/** "12 QC photos · 3 Nov 2026", or that there are none yet. */
export function QcSummary({ count, latestAt, className }: { count: number; latestAt: string | null; className?: string }) {
  if (count === 0) return <span className={`qc-summary qc-summary--none ${className ?? ""}`.trim()}>No QC photos yet</span>;
  return (
    <span className={`qc-summary ${className ?? ""}`.trim()}>
      {count === 1 ? "1 QC photo" : `${count} QC photos`}
      {latestAt ? (
        <>
          {" · "}
          <time dateTime={latestAt} title="Newest QC set">
            {dayText(latestAt)}
          </time>
        </>
      ) : null}
    </span>
  );
}
