/**
 * Currencies and price display, client-safe (docs/product/storefront.md 2, 9). Prices are stored in
 * CNY; a rate is CNY per one unit of the currency; displayed = CNY ÷ rate, 2 decimals.
 */

export const CURRENCY_CODES = ["CNY", "USD", "EUR", "GBP", "JPY", "KRW", "AUD", "CAD"] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

export const CURRENCIES: Record<CurrencyCode, { name: string; symbol: string }> = {
  CNY: { name: "Chinese yuan", symbol: "¥" },
  USD: { name: "US dollar", symbol: "$" },
  EUR: { name: "Euro", symbol: "€" },
  GBP: { name: "British pound", symbol: "£" },
  JPY: { name: "Japanese yen", symbol: "JP¥" },
  KRW: { name: "South Korean won", symbol: "₩" },
  AUD: { name: "Australian dollar", symbol: "A$" },
  CAD: { name: "Canadian dollar", symbol: "C$" },
};

export const DEFAULT_CURRENCY: CurrencyCode = "USD";

/** The spec's built-in CNY-per-unit rates (the fallback of the fallback). */
export const DEFAULT_RATES: Record<Exclude<CurrencyCode, "CNY">, number> = {
  USD: 6.64,
  EUR: 7.54,
  GBP: 8.93,
  JPY: 0.057,
  KRW: 0.0049,
  AUD: 4.27,
  CAD: 4.82,
};

export type Rates = Record<CurrencyCode, number>;

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === "string" && (CURRENCY_CODES as readonly string[]).includes(value);
}

/** CNY → currency, rounded to 2 decimals. */
export function convertFromCny(priceCny: number, code: CurrencyCode, rates: Rates): number {
  const rate = code === "CNY" ? 1 : rates[code];
  return Math.round((priceCny / rate) * 100) / 100;
}

// one formatter for every price: toLocaleString with options builds a new one at each call
// (about 0.1 ms each: a product page with many SKUs spent a millisecond on it)
const TWO_DECIMALS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatMoney(amount: number, code: CurrencyCode): string {
  return `${CURRENCIES[code].symbol}${TWO_DECIMALS.format(amount)}`;
}

/** A price in the chosen currency, and the CNY price beside it when that is another. */
export function displayPrice(priceCny: number | null, code: CurrencyCode, rates: Rates): { main: string; cny: string | null } | null {
  if (priceCny === null) return null;
  if (code === "CNY") return { main: formatMoney(priceCny, "CNY"), cny: null };
  return { main: formatMoney(convertFromCny(priceCny, code, rates), code), cny: formatMoney(priceCny, "CNY") };
}
