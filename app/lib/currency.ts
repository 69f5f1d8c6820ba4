/**
 * Currencies and price display, client-safe (docs/product/storefront.md 2, 9). Prices are stored in
 * CNY; a rate is CNY per one unit of the currency; displayed = CNY ÷ rate, in the
 * currency's minor units (2 decimals for most, none for JPY and KRW: docs/decisions/048).
 */

/**
 * The display currencies: the spec's eight, then those this audience pays in (contract:
 * at least 20). Adding one is a line here and one in DEFAULT_RATES (its name in each
 * language comes from Intl.DisplayNames); the rate files carry every one of them.
 */
export const CURRENCY_CODES = [
  "CNY",
  "USD",
  "EUR",
  "GBP",
  "JPY",
  "KRW",
  "AUD",
  "CAD",
  "BRL",
  "MXN",
  "PLN",
  "SEK",
  "NOK",
  "DKK",
  "CZK",
  "CHF",
  "NZD",
  "SGD",
  "HKD",
  "TWD",
  "PHP",
  "MYR",
  "THB",
  "INR",
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** The spec's eight: the exchange-rate map of GET /api/exchange-rates keeps to them (the contract's shape). */
export const SPEC_CURRENCY_CODES = CURRENCY_CODES.slice(0, 8);

/** English names (the back office's rate table) and the symbol a price starts with. */
export const CURRENCIES: Record<CurrencyCode, { name: string; symbol: string }> = {
  CNY: { name: "Chinese yuan", symbol: "¥" },
  USD: { name: "US dollar", symbol: "$" },
  EUR: { name: "Euro", symbol: "€" },
  GBP: { name: "British pound", symbol: "£" },
  JPY: { name: "Japanese yen", symbol: "JP¥" },
  KRW: { name: "South Korean won", symbol: "₩" },
  AUD: { name: "Australian dollar", symbol: "A$" },
  CAD: { name: "Canadian dollar", symbol: "C$" },
  BRL: { name: "Brazilian real", symbol: "R$" },
  MXN: { name: "Mexican peso", symbol: "MX$" },
  PLN: { name: "Polish złoty", symbol: "zł\u00a0" },
  SEK: { name: "Swedish krona", symbol: "SEK\u00a0" },
  NOK: { name: "Norwegian krone", symbol: "NOK\u00a0" },
  DKK: { name: "Danish krone", symbol: "DKK\u00a0" },
  CZK: { name: "Czech koruna", symbol: "Kč\u00a0" },
  CHF: { name: "Swiss franc", symbol: "CHF\u00a0" },
  NZD: { name: "New Zealand dollar", symbol: "NZ$" },
  SGD: { name: "Singapore dollar", symbol: "S$" },
  HKD: { name: "Hong Kong dollar", symbol: "HK$" },
  TWD: { name: "New Taiwan dollar", symbol: "NT$" },
  PHP: { name: "Philippine peso", symbol: "₱" },
  MYR: { name: "Malaysian ringgit", symbol: "RM" },
  THB: { name: "Thai baht", symbol: "฿" },
  INR: { name: "Indian rupee", symbol: "₹" },
};

export const DEFAULT_CURRENCY: CurrencyCode = "USD";

/**
 * CNY-per-unit rates used until the rate files have answered (and when neither does):
 * the spec's for its eight; for the others, the rate files' of 2026-11 rounded (so a
 * fresh box shows sensible prices offline).
 */
export const DEFAULT_RATES: Record<Exclude<CurrencyCode, "CNY">, number> = {
  USD: 6.64,
  EUR: 7.54,
  GBP: 8.93,
  JPY: 0.057,
  KRW: 0.0049,
  AUD: 4.27,
  CAD: 4.82,
  BRL: 1.32,
  MXN: 0.39,
  PLN: 1.95,
  SEK: 0.75,
  NOK: 0.7,
  DKK: 1.1,
  CZK: 0.34,
  CHF: 8.8,
  NZD: 4.0,
  SGD: 5.45,
  HKD: 0.91,
  TWD: 0.23,
  PHP: 0.12,
  MYR: 1.7,
  THB: 0.22,
  INR: 0.08,
};

export type Rates = Record<CurrencyCode, number>;

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === "string" && (CURRENCY_CODES as readonly string[]).includes(value);
}

/**
 * The currencies shown without decimals: their ISO 4217 minor unit is 0 (every other one
 * here has 2). A table, not Intl at run time: the first currency formatter a page builds
 * loads the browser's currency data, about 20 ms of a phone's main thread before the page
 * answers a tap (docs/performance.md, "Lighthouse after issue 39"); a unit test holds the
 * table to what Intl.NumberFormat says for every code (docs/decisions/048).
 */
const WITHOUT_DECIMALS: ReadonlySet<CurrencyCode> = new Set<CurrencyCode>(["JPY", "KRW"]);

/** The decimals a currency is shown with: none for JPY and KRW, two for the others. */
export function minorUnits(code: CurrencyCode): number {
  return WITHOUT_DECIMALS.has(code) ? 0 : 2;
}

/** CNY → currency, rounded to the currency's minor units. */
export function convertFromCny(priceCny: number, code: CurrencyCode, rates: Rates): number {
  const rate = code === "CNY" ? 1 : rates[code];
  const scale = 10 ** minorUnits(code);
  return Math.round((priceCny / rate) * scale) / scale;
}

/**
 * An amount as en-US writes it with these decimals ("12,263", "1,234.50"): what
 * `Intl.NumberFormat("en-US", { minimumFractionDigits, maximumFractionDigits })` gives, and a
 * unit test holds it to that for every currency. Written out because the first number
 * formatter a page builds loads the browser's number data: about 20 ms of a phone's main
 * thread inside the hydration task, for a comma every three digits (docs/performance.md,
 * "Lighthouse after issue 39"). Amounts come rounded to their decimals (convertFromCny).
 */
function grouped(amount: number, decimals: number): string {
  const [whole, fraction] = Math.abs(amount).toFixed(decimals).split(".");
  const sign = amount < 0 && Number(whole) + Number(fraction ?? 0) > 0 ? "-" : "";
  return sign + whole.replace(/\B(?=(\d{3})+$)/g, ",") + (fraction === undefined ? "" : "." + fraction);
}

export function formatMoney(amount: number, code: CurrencyCode): string {
  return `${CURRENCIES[code].symbol}${grouped(amount, minorUnits(code))}`;
}

/** A price in the chosen currency, and the CNY price beside it when that is another. */
export function displayPrice(priceCny: number | null, code: CurrencyCode, rates: Rates): { main: string; cny: string | null } | null {
  if (priceCny === null) return null;
  if (code === "CNY") return { main: formatMoney(priceCny, "CNY"), cny: null };
  return { main: formatMoney(convertFromCny(priceCny, code, rates), code), cny: formatMoney(priceCny, "CNY") };
}
