/**
 * "Price history" on the product page (contract; docs/decisions/048): the prices the
 * listing watch and the editors recorded, drawn as an inline SVG step line (no JavaScript,
 * no chart library), with the lowest, highest and current price in the visitor's currency
 * and the latest changes as text for those who do not see the chart.
 */
import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useI18n } from "~/i18n/i18n";
import { DEFAULT_CURRENCY, DEFAULT_RATES, displayPrice, type Rates } from "~/lib/currency";
import { dayText } from "~/lib/dates";
import type { RootLoaderData } from "~/root";
import { Price } from "./price";

export type PriceHistoryPointView = { at: string; price: number };

const WIDTH = 320;
const HEIGHT = 96;
const PAD = 6;
const DAY_MS = 24 * 60 * 60_000;
/** the latest changes listed as text */
const LISTED = 6;

/** The step line's path: each price holds until the next change, the last to the right edge. */
export function stepPath(points: readonly PriceHistoryPointView[]): string {
  let times = points.map((point) => Date.parse(point.at));
  // changes within a day of each other (an editor correcting a price) are spaced evenly:
  // drawn by time they would stand on one another
  if (times[times.length - 1] - times[0] < DAY_MS) times = times.map((_, index) => index * DAY_MS);
  const first = times[0];
  const latest = times[times.length - 1];
  // the current price holds on to the right edge: half an average step, a day for one point
  const last = points.length > 1 ? latest + (latest - first) / (points.length - 1) / 2 : first + DAY_MS;
  const span = last - first;
  const prices = points.map((point) => point.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const x = (time: number) => (PAD + ((time - first) / span) * (WIDTH - 2 * PAD)).toFixed(1);
  const y = (price: number) => (high === low ? HEIGHT / 2 : PAD + ((high - price) / (high - low)) * (HEIGHT - 2 * PAD)).toFixed(1);
  let path = `M${x(first)} ${y(prices[0])}`;
  for (let i = 1; i < points.length; i++) path += `H${x(times[i])}V${y(prices[i])}`;
  return `${path}H${x(last)}`;
}

export function PriceHistory({ points, alert }: { points: readonly PriceHistoryPointView[]; alert?: ReactNode }) {
  const { t, language } = useI18n();
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  if (points.length === 0) return null;
  const money = (cny: number) =>
    displayPrice(cny, root?.currency ?? DEFAULT_CURRENCY, root?.rates ?? ({ CNY: 1, ...DEFAULT_RATES } as Rates))?.main ?? "";
  const prices = points.map((point) => point.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const now = points[points.length - 1];
  const since = dayText(points[0].at, language);
  const summary =
    points.length === 1
      ? t("shop.priceHistory.unchanged", { price: money(now.price), date: since })
      : t("shop.priceHistory.chartLabel", { date: since, low: money(low), high: money(high), now: money(now.price) });
  const changes = points.slice(1).slice(-LISTED).reverse();
  return (
    <section className="product-page__price-history" aria-labelledby="price-history-title">
      <h2 id="price-history-title">{t("shop.priceHistory.title")}</h2>
      <svg className="price-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <path d={stepPath(points)} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <dl className="price-history__figures">
        <div>
          <dt>{t("shop.priceHistory.now")}</dt>
          <dd>
            <Price cny={now.price} compact />
          </dd>
        </div>
        <div>
          <dt>{t("shop.priceHistory.lowest")}</dt>
          <dd>
            <Price cny={low} compact />
          </dd>
        </div>
        <div>
          <dt>{t("shop.priceHistory.highest")}</dt>
          <dd>
            <Price cny={high} compact />
          </dd>
        </div>
      </dl>
      <p className="muted">{points.length === 1 ? summary : t("shop.priceHistory.since", { date: since })}</p>
      {changes.length ? (
        <ol className="price-history__changes" aria-label={t("shop.priceHistory.changes")}>
          {changes.map((point, index) => (
            <li key={`${point.at}-${index}`}>
              <time dateTime={point.at}>{dayText(point.at, language)}</time> <Price cny={point.price} compact />
            </li>
          ))}
        </ol>
      ) : null}
      {alert}
    </section>
  );
}
