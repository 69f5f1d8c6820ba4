/**
 * The catalogue check (decision 031): every key in both languages, the same {{values}} in
 * both, every message pair complete and unambiguous, and every key the code names (a
 * literal `t("…")`, `titleKey: "…"`, a nav label) found in the catalogues, so that no page
 * can show a raw key. tests/integration/languages.test.ts renders the pages and looks.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import enAdmin from "./catalogues/en/admin";
import enEmail from "./catalogues/en/email";
import enShop from "./catalogues/en/shop";
import { ADMIN_MESSAGES } from "./catalogues/messages/admin";
import { SHOP_MESSAGES } from "./catalogues/messages/shop";
import type { Catalogue } from "./catalogues/types";
import zhAdmin from "./catalogues/zh-CN/admin";
import zhEmail from "./catalogues/zh-CN/email";
import zhShop from "./catalogues/zh-CN/shop";
import { addCatalogue, translatorFor } from "./i18n";
import { ALL_CATALOGUES } from "./catalogues/all.server";
import { MESSAGE_TRANSLATIONS, SHOP_CATALOGUES, type StorefrontOnlyLanguage } from "./storefront-languages";
import { LANGUAGES } from "./languages";
import { translateMessage } from "./messages";
import "./i18n.server";
import { ADMIN_MESSAGES as ADMIN_USER_MESSAGES } from "~/schemas/admin-users-rules";
import { SETTINGS_MESSAGES } from "~/schemas/admin-site-settings";
import { MESSAGES as AUTH_MESSAGES } from "~/schemas/auth-rules";
import { BLOG_MESSAGES } from "~/schemas/blog-rules";
import { CATALOGUE_MESSAGES, RATE_MESSAGES } from "~/schemas/catalogue-messages";
import { EMAIL_MESSAGES } from "~/schemas/email-rules";
import { IMPORT_MESSAGES as BULK_IMPORT_MESSAGES } from "~/schemas/import-rules";
import { AGENT_MESSAGES, CRAWL_MESSAGES, IMPORT_MESSAGES, LISTING_MESSAGES, PASTE_MESSAGES } from "~/schemas/marketplace-rules";
import { QC_MESSAGES } from "~/schemas/qc-rules";
import { QC_SELECTION_MESSAGES } from "~/schemas/qc-selection";
import { SEARCH_ALIAS_MESSAGES } from "~/schemas/search-rules";
import { UNSUBSCRIBE_MESSAGES } from "~/services/unsubscribe.server";
import { PRICE_ALERT_MESSAGES } from "~/services/price-alerts.server";

/** Every set of messages the services and schemas give (the /api's words, shown on pages in either language). */
const SERVICE_MESSAGES: Record<string, Record<string, unknown>> = {
  ADMIN_USER_MESSAGES,
  SETTINGS_MESSAGES,
  AUTH_MESSAGES,
  BLOG_MESSAGES,
  CATALOGUE_MESSAGES,
  RATE_MESSAGES,
  EMAIL_MESSAGES,
  BULK_IMPORT_MESSAGES,
  AGENT_MESSAGES,
  CRAWL_MESSAGES,
  IMPORT_MESSAGES,
  LISTING_MESSAGES,
  PASTE_MESSAGES,
  QC_MESSAGES,
  QC_SELECTION_MESSAGES,
  SEARCH_ALIAS_MESSAGES,
  UNSUBSCRIBE_MESSAGES,
  PRICE_ALERT_MESSAGES,
};

const PLURAL = /_(zero|one|two|few|many|other)$/;
const ROOTS = ["common", "shop", "admin", "email"];

/** Every key of a catalogue, dotted, with its text. */
function flatten(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [name, value] of Object.entries(catalogue)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === "string") keys.set(key, value);
    else for (const [inner, text] of flatten(value, key)) keys.set(inner, text);
  }
  return keys;
}

/** The keys with plural forms taken as one (English has _one and _other, Chinese only _other). */
const base = (key: string) => key.replace(PLURAL, "");
const values = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const pairs: Array<[string, Catalogue, Catalogue]> = [
  ["shop", enShop, zhShop],
  ["admin", enAdmin, zhAdmin],
  ["email", enEmail, zhEmail],
];

describe("catalogues", () => {
  for (const [name, en, zh] of pairs) {
    it(`${name}: every key in English and in Chinese, with the same values`, () => {
      const english = flatten(en);
      const chinese = flatten(zh);
      const englishKeys = new Set([...english.keys()].map(base));
      const chineseKeys = new Set([...chinese.keys()].map(base));
      expect(
        [...englishKeys].filter((key) => !chineseKeys.has(key)),
        "missing in zh-CN",
      ).toEqual([]);
      expect(
        [...chineseKeys].filter((key) => !englishKeys.has(key)),
        "missing in en",
      ).toEqual([]);
      for (const [key, text] of english) {
        expect(text.trim(), key).not.toBe("");
        expect(ROOTS, key).toContain(key.split(".")[0]);
        const other = chinese.get(key) ?? chinese.get(base(key) + "_other");
        expect(other?.trim(), `${key} in zh-CN`).toBeTruthy();
        // a plural's Chinese may leave the count out; every other value must be there
        expect(
          values(other!).filter((v) => v !== "count"),
          key,
        ).toEqual(values(text).filter((v) => v !== "count"));
      }
      for (const key of english.keys()) {
        if (key.endsWith("_one")) expect(english.has(base(key) + "_other"), `${key} has no _other`).toBe(true);
      }
    });
  }

  const storefrontOnly = Object.keys(MESSAGE_TRANSLATIONS) as StorefrontOnlyLanguage[];
  for (const language of storefrontOnly) {
    for (const [name, en] of [
      ["shop", enShop],
      ["email", enEmail],
    ] as const) {
      it(`${language} ${name}: every English key, no other, with the same {{values}}`, () => {
        const english = flatten(en);
        const theirs = flatten(ALL_CATALOGUES[language][name]);
        const englishKeys = new Set([...english.keys()].map(base));
        const theirKeys = new Set([...theirs.keys()].map(base));
        expect(
          [...englishKeys].filter((key) => !theirKeys.has(key)),
          `missing in ${language}`,
        ).toEqual([]);
        expect(
          [...theirKeys].filter((key) => !englishKeys.has(key)),
          `not in en`,
        ).toEqual([]);
        for (const [key, text] of english) {
          const own = theirs.get(key) ?? theirs.get(base(key) + "_other");
          expect(own?.trim(), `${key} in ${language}`).toBeTruthy();
          // a plural form may say its count in words ("once"); every other value must be there
          const plural = PLURAL.test(key);
          const data = (text: string) => values(text).filter((value) => !plural || value !== "count");
          expect(data(own!), `${key} in ${language}`).toEqual(data(text));
        }
      });
    }

    it(`${language} messages: every storefront message, the same {$data}, and each shown in ${language}`, async () => {
      const translations = await MESSAGE_TRANSLATIONS[language]();
      const data = (text: string) => [...text.matchAll(/\{\$(\w+)\}/g)].map((m) => m[1]).sort();
      const keyOf = (pair: (typeof SHOP_MESSAGES)[number]) => (typeof pair.en === "string" ? pair.en : pair.en[1]);
      const englishKeys = SHOP_MESSAGES.map(keyOf);
      expect(
        englishKeys.filter((key) => !(key in translations)),
        `missing in ${language}`,
      ).toEqual([]);
      for (const pair of SHOP_MESSAGES) {
        const own = translations[keyOf(pair)];
        expect(Array.isArray(own), keyOf(pair)).toBe(Array.isArray(pair.en));
        for (const text of [own].flat()) expect(data(text), keyOf(pair)).toEqual(data([pair.en].flat()[0]));
      }
      // a contract message in Chinese or English is shown translated, never as Chinese
      const sample = SHOP_MESSAGES.find((pair) => typeof pair.en === "string" && !pair.en.includes("{$"))!;
      expect(translateMessage(language, sample["zh-CN"])).toBe(translations[sample.en as string]);
      expect(translateMessage(language, sample.en as string)).toBe(translations[sample.en as string]);
    });
  }

  it("offers a catalogue loader for every language, and every language's texts on the server", async () => {
    for (const language of LANGUAGES) {
      const catalogue = await SHOP_CATALOGUES[language]();
      expect(flatten(catalogue).size, language).toBe(flatten(ALL_CATALOGUES[language].shop).size);
      expect(translatorFor(language)("shop.priceHistory.title"), language).not.toBe("shop.priceHistory.title");
    }
    expect(translatorFor("de")("shop.priceHistory.title")).toBe("Preisverlauf");
    expect(translatorFor("fr")("email.code.registerHeading")).not.toBe(translatorFor("en")("email.code.registerHeading"));
  });

  it("writes the English back office in English (Chinese only where it is the example shown)", () => {
    const examples = new Set(["admin.searchWords.termHint", "admin.searchWords.bothWaysLabel"]);
    const chinese = [...flatten(enAdmin)].filter(([key, text]) => /\p{Script=Han}/u.test(text) && !examples.has(key));
    expect(chinese).toEqual([]);
  });

  it("has both languages of every message, the same data in each, and no message with two translations", () => {
    const seen = new Map<string, string>();
    const data = (text: string) => [...text.matchAll(/\{\$(\w+)\}/g)].map((m) => m[1]).sort();
    for (const pair of [...SHOP_MESSAGES, ...ADMIN_MESSAGES]) {
      const texts = [pair.en, pair["zh-CN"]].flat();
      for (const text of texts) {
        expect(text.trim(), JSON.stringify(pair)).not.toBe("");
        expect(data(text), `${text} names other data than ${pair["zh-CN"]}`).toEqual(data(pair["zh-CN"]));
        const earlier = seen.get(text);
        if (earlier !== undefined) expect(earlier, `"${text}" is in two pairs`).toBe(JSON.stringify(pair));
        seen.set(text, JSON.stringify(pair));
      }
      // English's singular and plural forms say the count
      if (Array.isArray(pair.en)) expect(data(pair["zh-CN"]), JSON.stringify(pair)).toContain("count");
    }
  });

  it("knows, in the other language, every message a service or schema gives", () => {
    // the data a message names: a number (a count, a row, seconds), a name, a platform, a list
    const samples: unknown[][] = [[1, 9], [3, 7], ["weidian", "7412"], ["Spring “sale”"], [["Spring sale"]], [["Spring sale", "Summer"]]];
    const unknown: string[] = [];
    for (const [group, messages] of Object.entries(SERVICE_MESSAGES)) {
      for (const [name, value] of Object.entries(messages)) {
        const texts: string[] = [];
        if (typeof value === "string") texts.push(value);
        else if (typeof value === "function") {
          for (const args of samples) {
            let text: unknown;
            try {
              text = (value as (...args: unknown[]) => unknown)(...args);
            } catch {
              continue;
            }
            if (typeof text === "string" && !/undefined|NaN|\[object/.test(text)) texts.push(text);
          }
          expect(texts.length, `${group}.${name} with none of the samples`).toBeGreaterThan(0);
        }
        for (const text of texts) {
          const chinese = /[\u4e00-\u9fff]/.test(text);
          const other = translateMessage(chinese ? "en" : "zh-CN", text);
          if (other === text || other.includes("{$")) unknown.push(`${group}.${name}: ${text}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it("knows every key the code names, in both languages", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !full.includes(`${path.sep}catalogues${path.sep}`))
          files.push(full);
      }
    };
    walk(path.resolve(__dirname, ".."));
    const named = new Map<string, string>();
    const patterns = [
      /\bt\(\s*["'`]((?:common|shop|admin|email)\.[\w.]+)["'`]/g,
      /titleKey:\s*["'`]((?:common|shop|admin|email)\.[\w.]+)["'`]/g,
      /label:\s*["'`]((?:admin|shop|common)\.[\w.]+)["'`]/g,
      /Key:\s*["'`]((?:common|shop|admin|email)\.[\w.]+)["'`]/g,
    ];
    for (const file of files) {
      const source = fs.readFileSync(file, "utf8");
      for (const pattern of patterns) for (const match of source.matchAll(pattern)) named.set(match[1], path.relative(process.cwd(), file));
    }
    expect(named.size).toBeGreaterThan(20);
    for (const language of LANGUAGES) {
      const t = translatorFor(language);
      const unknown = [...named].filter(([key]) => {
        const text = t(key, { count: 2 });
        return text === key || typeof text !== "string";
      });
      expect(
        unknown.map(([key, file]) => `${key} (${file})`),
        language,
      ).toEqual([]);
    }
  });

  it("says a count as each language does, fills values, and falls back to English, then to the key", () => {
    addCatalogue("en", {
      probe: { photos_one: "{{count}} photo of {{name}}", photos_other: "{{count}} photos of {{name}}", onlyEnglish: "Only English" },
    });
    addCatalogue("zh-CN", { probe: { photos_other: "{{name}} 的 {{count}} 张照片" } });
    const en = translatorFor("en");
    const zh = translatorFor("zh-CN");
    // the plural form comes from Intl.PluralRules: English one/other, Chinese other only
    expect(en("probe.photos", { count: 1, name: "Hoodie" })).toBe("1 photo of Hoodie");
    expect(en("probe.photos", { count: 3, name: "Hoodie" })).toBe("3 photos of Hoodie");
    expect(zh("probe.photos", { count: 1, name: "卫衣" })).toBe("卫衣 的 1 张照片");
    expect(zh("probe.onlyEnglish")).toBe("Only English");
    expect(zh("probe.nowhere")).toBe("probe.nowhere");
    expect(en("common.language")).toBe("Language");
    expect(zh("common.language")).toBe("语言");
  });

  it("keeps the data of a message that names some, and says English's count in the form it takes", () => {
    expect(translateMessage("zh-CN", "Unknown setting: site_colour")).toBe("未知设置：site_colour");
    expect(translateMessage("zh-CN", "site_name must be at most 200 characters")).toBe("site_name 最多 200 个字符");
    // a pattern more particular than another is found first
    expect(translateMessage("zh-CN", "Name must be at most 100 characters")).toBe("名称最多 100 个字符");
    expect(translateMessage("zh-CN", "big.png: Image too large. Maximum 40 megapixels")).toBe("big.png: 图片过大，最多 40 百万像素");
    expect(translateMessage("en", "已发布 1 张图片。")).toBe("1 photo published.");
    expect(translateMessage("en", "已发布 4 张图片。")).toBe("4 photos published.");
    expect(translateMessage("zh-CN", "4 photos published.")).toBe("已发布 4 张图片。");
    // data with the characters a pattern is made of stays as it was
    expect(translateMessage("zh-CN", "“a.b(c)*” already has an alias")).toBe("“a.b(c)*”已有别名");
    expect(translateMessage("en", "已导入微店商品 123（店铺：小店），请检查后保存。")).toBe(
      "Imported 微店 item 123 (shop: 小店). Check it, then save.",
    );
  });

  it("shows a service's message in the reader's language, and an unknown one as given", () => {
    const pair = ADMIN_MESSAGES[0] as { en: string; "zh-CN": string };
    expect(translateMessage("en", pair["zh-CN"])).toBe(pair.en);
    expect(translateMessage("zh-CN", pair.en)).toBe(pair["zh-CN"]);
    expect(translateMessage("en", pair.en)).toBe(pair.en);
    expect(translateMessage("zh-CN", "Something nobody wrote down")).toBe("Something nobody wrote down");
    // a file's name before a known message keeps the name and translates the reason
    expect(translateMessage("zh-CN", `cover.png: ${pair.en}`)).toBe(`cover.png: ${pair["zh-CN"]}`);
    expect(translateMessage("zh-CN", "cover.png: an unknown reason")).toBe("cover.png: an unknown reason");
    // a known message followed by the data it names keeps the data
    expect(translateMessage("zh-CN", `${pair.en}: 12`)).toBe(`${pair["zh-CN"]}: 12`);
    expect(translateMessage("en", `${pair["zh-CN"]} (weidian 7412)`)).toBe(`${pair.en} (weidian 7412)`);
    expect(translateMessage("en", "Nothing known: here (at all)")).toBe("Nothing known: here (at all)");
  });
});
