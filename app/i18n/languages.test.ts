import { describe, expect, it } from "vitest";
import { asLanguage, chooseLanguage, languageOfAcceptLanguage, languageOfCookieHeader } from "./languages";

describe("the reader's language", () => {
  it("reads any tag of a language we write (any Portuguese as Brazil's), and nothing else", () => {
    expect(asLanguage("en")).toBe("en");
    expect(asLanguage("EN-gb")).toBe("en");
    expect(asLanguage("zh")).toBe("zh-CN");
    expect(asLanguage("zh-Hans-CN")).toBe("zh-CN");
    expect(asLanguage("zh_TW")).toBe("zh-CN");
    expect(asLanguage("fr")).toBe("fr");
    expect(asLanguage("es-MX")).toBe("es");
    expect(asLanguage("de-AT")).toBe("de");
    expect(asLanguage("pt")).toBe("pt-BR");
    expect(asLanguage("pt-PT")).toBe("pt-BR");
    expect(asLanguage("ko")).toBeNull();
    expect(asLanguage("")).toBeNull();
    expect(asLanguage("english")).toBeNull();
  });

  it("takes the first lang cookie naming a language we have, however it is spaced or quoted", () => {
    expect(languageOfCookieHeader("lang=zh-CN")).toBe("zh-CN");
    expect(languageOfCookieHeader("a=1;  lang = zh-cn ;b=2")).toBe("zh-CN");
    expect(languageOfCookieHeader('lang="en"')).toBe("en");
    expect(languageOfCookieHeader("lang=ko; lang=zh")).toBe("zh-CN");
    expect(languageOfCookieHeader("lang=pt-BR")).toBe("pt-BR");
    expect(languageOfCookieHeader("LANG=zh-CN")).toBeNull();
    expect(languageOfCookieHeader("xlang=zh-CN")).toBeNull();
    expect(languageOfCookieHeader("lang=")).toBeNull();
    expect(languageOfCookieHeader(undefined)).toBeNull();
  });

  it("takes the heaviest Accept-Language range we have, the header's order on a tie", () => {
    expect(languageOfAcceptLanguage("zh-CN,zh;q=0.9,en;q=0.8")).toBe("zh-CN");
    expect(languageOfAcceptLanguage("ko-KR,ko;q=0.9,zh;q=0.5,en;q=0.4")).toBe("zh-CN");
    expect(languageOfAcceptLanguage("fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.4")).toBe("fr");
    expect(languageOfAcceptLanguage("ja;q=0.9,en;q=0.9,zh;q=0.9")).toBe("en");
    expect(languageOfAcceptLanguage("de;q=0.9,en;q=0.9,zh;q=0.9")).toBe("de");
    expect(languageOfAcceptLanguage("en;q=0.2, zh-TW;q=0.8")).toBe("zh-CN");
    expect(languageOfAcceptLanguage("en;q=0, zh")).toBe("zh-CN");
    expect(languageOfAcceptLanguage("zh;q=0")).toBeNull();
    expect(languageOfAcceptLanguage("*")).toBeNull();
    expect(languageOfAcceptLanguage("ko")).toBeNull();
    expect(languageOfAcceptLanguage("zh;q=abc")).toBeNull();
    expect(languageOfAcceptLanguage("")).toBeNull();
  });

  it("chooses cookie, else Accept-Language, else English for the storefront and Chinese for the back office", () => {
    expect(chooseLanguage("/", "lang=zh-CN", "en")).toBe("zh-CN");
    expect(chooseLanguage("/admin", "lang=en", "zh")).toBe("en");
    expect(chooseLanguage("/", null, "zh-CN")).toBe("zh-CN");
    expect(chooseLanguage("/admin/products", null, "en-US")).toBe("en");
    expect(chooseLanguage("/", null, "*")).toBe("en");
    expect(chooseLanguage("/admin", null, "*")).toBe("zh-CN");
    expect(chooseLanguage("/admin/products", "lang=fr", "ko")).toBe("zh-CN");
    // the storefront speaks Spanish, French, German and Portuguese; the back office does not
    expect(chooseLanguage("/", "lang=es", "en")).toBe("es");
    expect(chooseLanguage("/", null, "pt-BR,pt;q=0.9")).toBe("pt-BR");
    expect(chooseLanguage("/admin", "lang=es", "fr, en;q=0.5")).toBe("en");
    expect(chooseLanguage("/admin", null, "de")).toBe("zh-CN");
    expect(chooseLanguage("/administrator", null, null)).toBe("en");
  });
});
