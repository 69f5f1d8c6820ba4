import { useRouteLoaderData } from "@remix-run/react";
import { DEFAULT_CURRENCY, DEFAULT_RATES, displayPrice, type Rates } from "~/lib/currency";
import type { RootLoaderData } from "~/root";
import { useT } from "~/i18n/i18n";

const FALLBACK_RATES: Rates = { CNY: 1, ...DEFAULT_RATES };

/**
 * A CNY price in the visitor's currency (root loader: cookie and rates), with the CNY
 * price beside it unless the currency is CNY. `compact` leaves the CNY price out.
 */
export function Price({ cny, compact = false, className }: { cny: number | null; compact?: boolean; className?: string }) {
  const t = useT();
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const shown = displayPrice(cny, root?.currency ?? DEFAULT_CURRENCY, root?.rates ?? FALLBACK_RATES);
  if (!shown) return <span className={`price price--none ${className ?? ""}`.trim()}>{t("shop.price.notSet")}</span>;
  return (
    <span className={`price ${className ?? ""}`.trim()}>
      <span className="price__main">{shown.main}</span>
      {shown.cny && !compact ? <span className="price__cny">{shown.cny}</span> : null}
    </span>
  );
}
