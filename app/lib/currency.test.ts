import { describe, expect, it } from "vitest";
import { CURRENCY_CODES, DEFAULT_RATES, MINOR_UNITS, convertFromCny, displayPrice, formatMoney, type Rates } from "./currency";

const rates = { CNY: 1, ...DEFAULT_RATES } as Rates;

describe("display currencies", () => {
  it("offers at least 20, each with a built-in rate", () => {
    expect(CURRENCY_CODES.length).toBeGreaterThanOrEqual(20);
    for (const code of CURRENCY_CODES) if (code !== "CNY") expect(DEFAULT_RATES[code]).toBeGreaterThan(0);
  });

  it("shows each in its own minor units: no decimals for yen and won", () => {
    expect(MINOR_UNITS.JPY).toBe(0);
    expect(MINOR_UNITS.KRW).toBe(0);
    expect(MINOR_UNITS.USD).toBe(2);
    expect(formatMoney(12263.16, "JPY")).toBe("JP¥12,263");
    expect(formatMoney(142653.06, "KRW")).toBe("₩142,653");
    expect(formatMoney(12.5, "USD")).toBe("$12.50");
    expect(formatMoney(1234.5, "BRL")).toBe("R$1,234.50");
    expect(convertFromCny(699, "JPY", rates)).toBe(12263);
    expect(displayPrice(699, "KRW", rates)).toEqual({ main: "₩142,653", cny: "¥699.00" });
  });
});
