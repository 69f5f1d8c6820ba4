/**
 * Texts arriving in the browser (the language's catalogue after the page's own texts)
 * render the page again only when a render lacked one (app/i18n/i18n.tsx, `lacked`): a
 * page rendered with every text it shows does not render again for nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  addCatalogue,
  addTexts,
  lacked,
  numberText,
  percentText,
  pluralForm,
  setTextsPending,
  subscribeToTexts,
  translatorFor,
} from "./i18n";
import { LANGUAGES } from "./languages";

let unsubscribe: () => void = () => undefined;
afterEach(() => {
  unsubscribe();
  setTextsPending(false);
});

function rendersOnChange(): () => number {
  let renders = 0;
  unsubscribe = subscribeToTexts(() => {
    renders += 1;
  });
  return () => renders;
}

describe("texts that arrive after the page rendered", () => {
  it("do not render again a page that had every text it showed", () => {
    addTexts("en", { "test.arrival.shown": "Shown" });
    setTextsPending(true);
    const renders = rendersOnChange();
    expect(translatorFor("en")("test.arrival.shown")).toBe("Shown");
    addCatalogue("en", { test: { arrival: { shown: "Shown", other: "Other" } } });
    setTextsPending(false);
    expect(renders()).toBe(0);
  });

  it("render again, once, a page that showed nothing for a text it lacked, which then shows", () => {
    setTextsPending(true);
    const renders = rendersOnChange();
    const t = translatorFor("en");
    expect(t("test.arrival.lacking")).toBe("");
    addCatalogue("en", { test: { arrival: { lacking: "Here now" } } });
    expect(renders()).toBe(1);
    setTextsPending(false);
    expect(renders()).toBe(1);
    expect(t("test.arrival.lacking")).toBe("Here now");
  });

  it("a message shown as it came (lacked) counts as lacking", () => {
    const renders = rendersOnChange();
    expect(lacked("Some message")).toBe("Some message");
    addTexts("en", {});
    expect(renders()).toBe(1);
  });
});

describe("counts and plural forms without Intl", () => {
  // whole numbers a page counts: small ones, the edges of each grouping, millions
  const counts = [
    ...Array.from({ length: 1_200 }, (_, n) => n),
    9_999,
    10_000,
    12_345,
    99_999,
    100_000,
    123_456,
    999_999,
    1_000_000,
    1_000_001,
    2_000_000,
    12_345_678,
    100_000_000,
    -1,
    -1_234,
    -12_345,
    -1_000_000,
    Number.MAX_SAFE_INTEGER,
  ];

  it.each(LANGUAGES)("%s: a whole number reads as Intl.NumberFormat writes it", (language) => {
    const format = new Intl.NumberFormat(language);
    for (const n of counts) expect(numberText(language, n), `${n}`).toBe(format.format(n));
  });

  it.each(LANGUAGES)("%s: a whole number takes the plural form Intl.PluralRules gives", (language) => {
    const rules = new Intl.PluralRules(language);
    for (const n of counts) expect(pluralForm(language, n), `${n}`).toBe(rules.select(n));
  });

  it.each(LANGUAGES)("%s: a share reads as the whole percentage Intl writes", (language) => {
    const format = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 });
    const shares = [...Array.from({ length: 20_001 }, (_, n) => n / 10_000), 1 - 11 / 64, 0.285, 0.145, 12.5, -0.25];
    for (const share of shares) expect(percentText(language, share), `${share}`).toBe(format.format(share));
  });

  it("fractions are left to Intl", () => {
    expect(numberText("de", 1234.5)).toBe(new Intl.NumberFormat("de").format(1234.5));
    expect(pluralForm("fr", 1.5)).toBe(new Intl.PluralRules("fr").select(1.5));
  });
});
