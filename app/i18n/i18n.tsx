/**
 * Translation (docs/decisions/031-languages.md): one table per language of the texts this
 * process has (the server: every catalogue; the browser: the texts its page's render used,
 * which the page came with, then the language's storefront catalogue once the page has
 * hydrated, and the back office's before an /admin page renders), and a fixed translator
 * per language: a request never changes a shared "current language".
 *
 * Keys are dotted paths under `common.`, `shop.`, `admin.` and `email.`: a key a page
 * shows raw is caught by the catalogue check (app/i18n/catalogues.test.ts). Messages that
 * the services and schemas give (the contract's words, the same for /api) are translated
 * where a page shows them, through `message()`: the /api keeps them word for word.
 */
import { createContext, useContext, useSyncExternalStore, type ReactNode } from "react";
import { STOREFRONT_LANGUAGE, type Language } from "./languages";
import type { Catalogue } from "./catalogues/types";
import { isStorefrontOnly, MESSAGE_TRANSLATIONS, SHOP_CATALOGUES } from "./storefront-languages";

/** per language: a text's dotted key → its text (`{{name}}` values filled in when shown) */
const tables = new Map<Language, Map<string, string>>();

function tableOf(language: Language): Map<string, string> {
  let table = tables.get(language);
  if (!table) tables.set(language, (table = new Map()));
  return table;
}

/** Adds a language's catalogue (nested keys), beside what the language already has. */
export function addCatalogue(language: Language, catalogue: Catalogue): void {
  const table = tableOf(language);
  const add = (prefix: string, branch: Catalogue) => {
    for (const [name, value] of Object.entries(branch)) {
      if (typeof value === "string") table.set(prefix + name, value);
      else add(`${prefix}${name}.`, value);
    }
  };
  add("", catalogue);
  textsChanged();
}

/** Adds texts by their dotted keys: those a page's render used, which it came with (app/i18n/page-texts.tsx). */
export function addTexts(language: Language, texts: Record<string, string>): void {
  const table = tableOf(language);
  for (const [key, text] of Object.entries(texts)) table.set(key, text);
  textsChanged();
}

/** `{{name}}` values; `count` also picks the plural form (`key_one`, `key_other`, …). */
export type TranslateValues = Record<string, string | number | null | undefined>;
export type Translate = (key: string, values?: TranslateValues) => string;

/*
 * Plural forms and counts of whole numbers come from tables of the six languages' rules,
 * not from Intl: the first Intl object of a kind a page makes costs the browser 10–20 ms of
 * main thread (it loads that kind's data), a long task on a cheap phone before the page
 * answers a tap (docs/performance.md, "Lighthouse, December"). Unit tests hold both tables
 * to Intl for every language; fractions, which the pages do not count in, go to Intl.
 */

/** CLDR's cardinal plural rules of the languages offered, for whole numbers (n ≥ 0). */
const WHOLE_PLURALS: Record<Language, (n: number) => string> = {
  en: (n) => (n === 1 ? "one" : "other"),
  de: (n) => (n === 1 ? "one" : "other"),
  "zh-CN": () => "other",
  es: (n) => (n === 1 ? "one" : n !== 0 && n % 1_000_000 === 0 ? "many" : "other"),
  fr: (n) => (n <= 1 ? "one" : n % 1_000_000 === 0 ? "many" : "other"),
  "pt-BR": (n) => (n <= 1 ? "one" : n % 1_000_000 === 0 ? "many" : "other"),
};

/** How each language groups a whole number's digits: the separator, and from how many digits it groups. */
const DIGIT_GROUPS: Record<Language, { separator: string; fromDigits: number }> = {
  en: { separator: ",", fromDigits: 4 },
  "zh-CN": { separator: ",", fromDigits: 4 },
  es: { separator: ".", fromDigits: 5 },
  fr: { separator: "\u202f", fromDigits: 4 },
  de: { separator: ".", fromDigits: 4 },
  "pt-BR": { separator: ".", fromDigits: 4 },
};

const pluralRules = new Map<Language, Intl.PluralRules>();
export function pluralForm(language: Language, count: number): string {
  if (Number.isSafeInteger(count)) return WHOLE_PLURALS[language](Math.abs(count));
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

const numberFormats = new Map<Language, Intl.NumberFormat>();
/** A count as the language writes it ("12,345", "12.345", "12 345"). */
export function numberText(language: Language, value: number): string {
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value));
    const { separator, fromDigits } = DIGIT_GROUPS[language];
    const whole = digits.length < fromDigits ? digits : digits.replace(/\B(?=(\d{3})+$)/g, separator);
    return value < 0 ? `-${whole}` : whole;
  }
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)));
  return format.format(value);
}

/** Between a percentage and its sign: none, or a no-break space. */
const PERCENT_SPACE: Record<Language, string> = { en: "", "zh-CN": "", es: "\u00a0", fr: "\u00a0", de: "\u00a0", "pt-BR": "" };

const percentFormats = new Map<Language, Intl.NumberFormat>();
/** A share (0.12) as the language writes a whole percentage ("12%", "12 %"), rounded as Intl rounds it. */
export function percentText(language: Language, share: number): string {
  // the share as its shortest decimal (as Intl reads a number), then rounded half away from zero
  const whole = Math.round(Number((share * 100).toPrecision(15)));
  if (share >= 0 && Number.isSafeInteger(whole)) return `${numberText(language, whole)}${PERCENT_SPACE[language]}%`;
  let format = percentFormats.get(language);
  if (!format) percentFormats.set(language, (format = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 })));
  return format.format(share);
}

/**
 * Told of each text a lookup finds: the server keeps the ones a page's render used, and
 * sends them with it (app/i18n/i18n.server.ts).
 */
let onTextFound: ((language: Language, key: string, text: string) => void) | undefined;
export function setTextRecorder(record: typeof onTextFound): void {
  onTextFound = record;
}

function text(language: Language, key: string): string | undefined {
  const found = tables.get(language)?.get(key);
  if (found !== undefined) onTextFound?.(language, key, found);
  return found;
}

const VALUE = /\{\{\s*(\w+)\s*\}\}/g;
function fill(template: string, values: TranslateValues | undefined): string {
  return template.replace(VALUE, (_whole, name: string) => String(values?.[name] ?? ""));
}

/** The text of `key` in `language`, its values filled in; undefined when the language lacks it. */
function lookup(language: Language, key: string, values: TranslateValues | undefined): string | undefined {
  const count = values?.count;
  const template =
    (typeof count === "number" && (text(language, `${key}_${pluralForm(language, count)}`) ?? text(language, `${key}_other`))) ||
    text(language, key);
  return template === undefined ? undefined : fill(template, values);
}

/**
 * While the browser has only the texts its page came with (until the language's catalogue
 * arrives, app/entry.client.tsx), a key it lacks shows nothing rather than itself, and
 * shows its text once the catalogue has come.
 */
let textsPending = false;
export function setTextsPending(pending: boolean): void {
  textsPending = pending;
  textsChanged();
}

/**
 * A translator fixed to one language: a request never changes a shared "current
 * language" under another. A key missing in Chinese shows its English (the check in npm
 * test keeps both complete); a key missing in both shows itself.
 */
export function translatorFor(language: Language): Translate {
  let t = fixed.get(language);
  if (!t) {
    t = (key, values) =>
      lookup(language, key, values) ?? (language !== "en" ? lookup("en", key, values) : undefined) ?? (textsPending ? lacked("") : key);
    fixed.set(language, t);
  }
  return t;
}
const fixed = new Map<Language, Translate>();

/**
 * How a service's or schema's message reads in a language: app/i18n/messages.ts with the
 * message pairs; in the browser, until they come, the messages its page came with.
 */
type MessageTranslator = (language: Language, text: string) => string;
let messageTranslator: MessageTranslator = (_language, text) => text;
export function setMessageTranslator(translate: MessageTranslator): void {
  messageTranslator = translate;
  textsChanged();
}

/**
 * Whether a render showed something in place of a text the browser lacked (a key, or a
 * service's message, it did not have yet). Only then does a text's arrival render the page
 * again: a page rendered with the texts it came with shows every text it needs, and the
 * catalogue's arrival changes nothing on it. (Rendering the whole page again for nothing
 * was a long task after every hydration, docs/performance.md "Lighthouse, December".)
 */
let lackedText = false;
/** What a render shows in place of a text it lacks, noted so that the text's arrival renders it. */
export function lacked<T>(shown: T): T {
  lackedText = true;
  return shown;
}

/** bumped when texts or the message translator come and a render lacked one: what the page shows renders again with them */
let textsVersion = 0;
const textsListeners = new Set<() => void>();
function textsChanged(): void {
  if (textsListeners.size > 0 && !lackedText) return;
  lackedText = false;
  textsVersion += 1;
  for (const listener of textsListeners) listener();
}
/** Calls `listener` when what the page shows should render again with new texts (I18nProvider). */
export const subscribeToTexts = (listener: () => void) => {
  textsListeners.add(listener);
  return () => textsListeners.delete(listener);
};
const currentTextsVersion = () => textsVersion;

type I18nValue = { language: Language; t: Translate; message: (text: string) => string };
const I18nContext = createContext<I18nValue | null>(null);
const values = new Map<string, I18nValue>();

function valueFor(language: Language, version = textsVersion): I18nValue {
  const key = `${language} ${version}`;
  let value = values.get(key);
  if (!value) {
    value = { language, t: translatorFor(language), message: (text) => messageTranslator(language, text) };
    values.set(key, value);
  }
  return value;
}

export function I18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  const version = useSyncExternalStore(subscribeToTexts, currentTextsVersion, currentTextsVersion);
  return <I18nContext.Provider value={valueFor(language, version)}>{children}</I18nContext.Provider>;
}

/** The page's language, its translator and its message translator. */
export function useI18n(): I18nValue {
  return useContext(I18nContext) ?? valueFor(STOREFRONT_LANGUAGE);
}

export function useT(): Translate {
  return useI18n().t;
}

/**
 * The browser's loading of the storefront's texts (app/entry.client.tsx, and the back
 * office's loader for its pages' chrome: back-office-catalogue.ts): a language's catalogue,
 * and the message pairs with their matcher, each its own chunk, each fetched once. Here
 * rather than in a module of their own, which would be one more script for every page.
 */
const loading = new Map<string, Promise<void>>();

/** Each load once per key; a failed one may be tried again at the next call. */
export function once(key: string, load: () => Promise<void>): Promise<void> {
  let promise = loading.get(key);
  if (!promise) {
    promise = load();
    promise.catch(() => loading.delete(key));
    loading.set(key, promise);
  }
  return promise;
}

export function loadStorefrontCatalogue(language: Language): Promise<void> {
  return once(`catalogue ${language}`, async () => addCatalogue(language, await SHOP_CATALOGUES[language]()));
}

export function loadStorefrontMessages(language: Language): Promise<void> {
  return once(`messages ${language}`, async () => {
    const [{ SHOP_MESSAGES }, { addMessagePairs, addTranslatedMessages }, translations] = await Promise.all([
      import("./catalogues/messages/shop"),
      import("./messages"),
      isStorefrontOnly(language) ? MESSAGE_TRANSLATIONS[language]() : null,
    ]);
    if (translations) addTranslatedMessages(language, SHOP_MESSAGES, translations);
    else addMessagePairs(language as "en" | "zh-CN", SHOP_MESSAGES);
  });
}
