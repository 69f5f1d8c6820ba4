/**
 * Texts arriving in the browser (the language's catalogue after the page's own texts)
 * render the page again only when a render lacked one (app/i18n/i18n.tsx, `lacked`): a
 * page rendered with every text it shows does not render again for nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { addCatalogue, addTexts, lacked, setTextsPending, subscribeToTexts, translatorFor } from "./i18n";

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
