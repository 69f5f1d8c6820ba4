import type { AriaAttributes, AriaRole } from "react";

/** One part of the whole: its count, its colour (good, bad, or neither) and a class of its own. */
export type BarPart = { value: number; tone: "good" | "bad" | "neutral"; className: string };

/** A part's share of the whole as a width ("0%" of nothing). */
const share = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(2)}%` : "0%");

/**
 * The parts of a whole side by side in one rounded bar, what is left of it empty: a
 * campaign's sent, failed and skipped mail, an import's rows by how they ended. The caller
 * names it for assistive technology (a progressbar with its values, or an image with a label).
 */
export function StackedBar({
  parts,
  total,
  className,
  role,
  ...aria
}: { parts: BarPart[]; total: number; className: string; role: AriaRole } & AriaAttributes) {
  return (
    <div className={`stacked-bar ${className}`} role={role} {...aria}>
      {parts.map((part) => (
        <span
          key={part.className}
          className={`stacked-bar__part--${part.tone} ${part.className}`}
          style={{ width: share(part.value, total) }}
        />
      ))}
    </div>
  );
}
