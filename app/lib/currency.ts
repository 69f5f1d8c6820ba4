/**
 * Currencies and price display, client-safe (docs/product/storefront.md 2, 9). Prices are stored in
 * CNY; a rate is CNY per one unit of the currency; displayed = CNY ÷ rate, in the
 * currency's minor units (2 decimals for most, none for JPY and KRW: docs/decisions/048).
 */

/**
 * The display currencies: the spec's eight, then those this audience pays in (contract:
 * at least 20). Adding one is a line here, one in DEFAULT_RATES, and its name in the
 * storefront catalogues (`common.currencies`); the rate files carry every one of them.
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
 * The decimals a currency is shown with: its minor units as Intl knows them (ISO 4217 and
 * CLDR): none for JPY and KRW, two for most.
 */
export const MINOR_UNITS: Record<CurrencyCode, number> = Object.fromEntries(
  CURRENCY_CODES.map((code) => [
    code,
    new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2,
  ]),
) as Record<CurrencyCode, number>;

/** CNY → currency, rounded to the currency's minor units. */
export function convertFromCny(priceCny: number, code: CurrencyCode, rates: Rates): number {
  const rate = code === "CNY" ? 1 : rates[code];
  const scale = 10 ** MINOR_UNITS[code];
  return Math.round((priceCny / rate) * scale) / scale;
}

// one formatter a currency for every price: toLocaleString with options builds a new one
// at each call (about 0.1 ms each: a product page with many SKUs spent a millisecond on it)
const FORMATTERS = new Map<number, Intl.NumberFormat>();
function formatterOf(decimals: number): Intl.NumberFormat {
  let formatter = FORMATTERS.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    FORMATTERS.set(decimals, formatter);
  }
  return formatter;
}

export function formatMoney(amount: number, code: CurrencyCode): string {
  return `${CURRENCIES[code].symbol}${formatterOf(MINOR_UNITS[code]).format(amount)}`;
}

/** A price in the chosen currency, and the CNY price beside it when that is another. */
export function displayPrice(priceCny: number | null, code: CurrencyCode, rates: Rates): { main: string; cny: string | null } | null {
  if (priceCny === null) return null;
  if (code === "CNY") return { main: formatMoney(priceCny, "CNY"), cny: null };
  return { main: formatMoney(convertFromCny(priceCny, code, rates), code), cny: formatMoney(priceCny, "CNY") };
}
