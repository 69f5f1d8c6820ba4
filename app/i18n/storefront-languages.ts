/**
 * The storefront's languages and their catalogues, for the browser (each loads as its own
 * chunk, once a page has hydrated) and the server (app/i18n/i18n.server.ts reads the same
 * table). Adding a language: its folder (shop.ts, email.ts, messages.ts, keys matching
 * en/: checked by app/i18n/catalogues.test.ts), its line here and in the server's table,
 * and its code and name in app/i18n/languages.ts.
 */
import type { Language } from "./languages";
import type { Catalogue, MessageTranslations } from "./catalogues/types";

/** The storefront's texts of each language. */
export const SHOP_CATALOGUES: Record<Language, () => Promise<Catalogue>> = {
  en: () => import("./catalogues/en/shop").then((m) => m.default),
  "zh-CN": () => import("./catalogues/zh-CN/shop").then((m) => m.default),
  es: () => import("./catalogues/es/shop").then((m) => m.default),
  fr: () => import("./catalogues/fr/shop").then((m) => m.default),
  de: () => import("./catalogues/de/shop").then((m) => m.default),
  "pt-BR": () => import("./catalogues/pt-BR/shop").then((m) => m.default),
};

/** The languages whose messages are not in the pairs (app/i18n/catalogues/messages/): their own table by the English text. */
export type StorefrontOnlyLanguage = Exclude<Language, "en" | "zh-CN">;

export const MESSAGE_TRANSLATIONS: Record<StorefrontOnlyLanguage, () => Promise<MessageTranslations>> = {
  es: () => import("./catalogues/es/messages").then((m) => m.default),
  fr: () => import("./catalogues/fr/messages").then((m) => m.default),
  de: () => import("./catalogues/de/messages").then((m) => m.default),
  "pt-BR": () => import("./catalogues/pt-BR/messages").then((m) => m.default),
};

export function isStorefrontOnly(language: Language): language is StorefrontOnlyLanguage {
  return language in MESSAGE_TRANSLATIONS;
}
