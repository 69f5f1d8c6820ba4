import { describe, expect, it } from "vitest";
import { CURRENCIES, CURRENCY_CODES, DEFAULT_RATES, minorUnits, convertFromCny, displayPrice, formatMoney, type Rates } from "./currency";

const rates = { CNY: 1, ...DEFAULT_RATES } as Rates;

describe("display currencies", () => {
  it("offers at least 20, each with a built-in rate", () => {
    expect(CURRENCY_CODES.length).toBeGreaterThanOrEqual(20);
    for (const code of CURRENCY_CODES) if (code !== "CNY") expect(DEFAULT_RATES[code]).toBeGreaterThan(0);
  });

  it("shows each in its own minor units: no decimals for yen and won", () => {
    expect(minorUnits("JPY")).toBe(0);
    expect(minorUnits("KRW")).toBe(0);
    expect(minorUnits("USD")).toBe(2);
    expect(formatMoney(12263.16, "JPY")).toBe("JP¥12,263");
    expect(formatMoney(142653.06, "KRW")).toBe("₩142,653");
    expect(formatMoney(12.5, "USD")).toBe("$12.50");
    expect(formatMoney(1234.5, "BRL")).toBe("R$1,234.50");
    expect(convertFromCny(699, "JPY", rates)).toBe(12263);
    expect(displayPrice(699, "KRW", rates)).toEqual({ main: "₩142,653", cny: "¥699.00" });
  });

  it("writes amounts as Intl.NumberFormat does in en-US, for every currency's decimals", () => {
    const amounts = [0, 0.5, 1, 9.99, 12.5, 999, 1000, 1234.5, 12263.16, 142653.06, 999999.99, 1000000, 123456789.12];
    for (const code of CURRENCY_CODES) {
      const decimals = minorUnits(code);
      const intl = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
      for (const amount of amounts) {
        const rounded = Math.round(amount * 10 ** decimals) / 10 ** decimals;
        expect(formatMoney(rounded, code), `${code} ${amount}`).toBe(CURRENCIES[code].symbol + intl.format(rounded));
      }
    }
  });

  it("knows each currency's minor units as Intl.NumberFormat does (ISO 4217, CLDR)", () => {
    for (const code of CURRENCY_CODES) {
      const intl = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits;
      expect(minorUnits(code), code).toBe(intl);
    }
  });
});
