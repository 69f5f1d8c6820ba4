/**
 * Every catalogue of every language, read at start by the server (pages, e-mails).
 * A new storefront language adds its line here (and in app/i18n/storefront-languages.ts).
 */
import type { Language } from "../languages";
import type { Catalogue, MessageTranslations } from "./types";
import enShop from "./en/shop";
import enEmail from "./en/email";
import enAdmin from "./en/admin";
import zhShop from "./zh-CN/shop";
import zhEmail from "./zh-CN/email";
import zhAdmin from "./zh-CN/admin";
import esShop from "./es/shop";
import esEmail from "./es/email";
import esMessages from "./es/messages";
import frShop from "./fr/shop";
import frEmail from "./fr/email";
import frMessages from "./fr/messages";
import deShop from "./de/shop";
import deEmail from "./de/email";
import deMessages from "./de/messages";
import ptShop from "./pt-BR/shop";
import ptEmail from "./pt-BR/email";
import ptMessages from "./pt-BR/messages";

export type LanguageCatalogues = { shop: Catalogue; email: Catalogue; admin?: Catalogue; messages?: MessageTranslations };

export const ALL_CATALOGUES: Record<Language, LanguageCatalogues> = {
  en: { shop: enShop, email: enEmail, admin: enAdmin },
  "zh-CN": { shop: zhShop, email: zhEmail, admin: zhAdmin },
  es: { shop: esShop, email: esEmail, messages: esMessages },
  fr: { shop: frShop, email: frEmail, messages: frMessages },
  de: { shop: deShop, email: deEmail, messages: deMessages },
  "pt-BR": { shop: ptShop, email: ptEmail, messages: ptMessages },
};
