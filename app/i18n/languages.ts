/**
 * The languages the site speaks and how a reader's is chosen (docs/decisions/031-languages.md):
 * the `lang` cookie (set by the header's form) when it names one we have, else the best
 * of the browser's Accept-Language we have, else the area's default: English for the
 * storefront, Chinese for the back office (its staff write Chinese).
 *
 * Shared by the app, the server's front (stored pages are kept per language: it keys them
 * with these same functions) and the browser.
 */
import { cookieValues } from "~/lib/http";

export const LANGUAGES = ["en", "zh-CN", "es", "fr", "de", "pt-BR"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The back office speaks these (its texts are written in them); the storefront and the
 * e-mails speak every language. Adding a storefront language is its catalogue folder
 * (app/i18n/catalogues/<lang>/: shop.ts, email.ts, messages.ts), one line in
 * `catalogues/index.ts`, and its code and name here.
 */
export const BACK_OFFICE_LANGUAGES = ["en", "zh-CN"] as const satisfies readonly Language[];

export const STOREFRONT_LANGUAGE: Language = "en";
export const BACK_OFFICE_LANGUAGE: Language = "zh-CN";

/** Each language named in itself (the switch shows these). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  "zh-CN": "中文",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
};

/** Each language in two or three letters (a phone's header shows these). */
export const LANGUAGE_SHORT: Record<Language, string> = { en: "EN", "zh-CN": "中文", es: "ES", fr: "FR", de: "DE", "pt-BR": "PT" };

/** The languages a page at `pathname` offers. */
export function languagesFor(pathname: string): readonly Language[] {
  return isBackOfficePath(pathname) ? BACK_OFFICE_LANGUAGES : LANGUAGES;
}

export const LANGUAGE_COOKIE = "lang";

/** The back office: /admin and below. */
export function isBackOfficePath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

export function defaultLanguageFor(pathname: string): Language {
  return isBackOfficePath(pathname) ? BACK_OFFICE_LANGUAGE : STOREFRONT_LANGUAGE;
}

/**
 * The language a tag names, forgivingly: any English (`en`, `en-GB`) is `en`; any Chinese
 * (`zh`, `zh-cn`, `zh-Hans`, `zh-TW`) is `zh-CN`, the only Chinese we write; any Spanish,
 * French or German is ours; any Portuguese (`pt`, `pt-PT`) is `pt-BR`, the only one we
 * write; else null.
 */
export function asLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  switch (primary) {
    case "en":
      return "en";
    case "zh":
      return "zh-CN";
    case "es":
      return "es";
    case "fr":
      return "fr";
    case "de":
      return "de";
    case "pt":
      return "pt-BR";
    default:
      return null;
  }
}

/** The language of the first `lang` cookie naming one we have (spacing and case aside), else null. */
export function languageOfCookieHeader(header: string | null | undefined, offered: readonly Language[] = LANGUAGES): Language | null {
  for (let value of cookieValues(header, LANGUAGE_COOKIE)) {
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    const language = asLanguage(value);
    if (language && offered.includes(language)) return language;
  }
  return null;
}

/**
 * The best language of an Accept-Language header that we have: by weight (q), in the
 * header's order on a tie; `*` or nothing we have gives null. A range with q=0 is refused.
 */
export function languageOfAcceptLanguage(header: string | null | undefined, offered: readonly Language[] = LANGUAGES): Language | null {
  if (!header) return null;
  let best: { language: Language; q: number; order: number } | null = null;
  const ranges = header.split(",");
  for (let order = 0; order < ranges.length && order < 32; order++) {
    const [tag, ...params] = ranges[order].split(";");
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split("=");
      if (name?.trim().toLowerCase() === "q") q = Number(value?.trim());
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const language = asLanguage(tag);
    if (language && offered.includes(language) && (!best || q > best.q)) best = { language, q, order };
  }
  return best?.language ?? null;
}

/**
 * The reader's language for a page at `pathname`: cookie, else Accept-Language, else the
 * area's default. The back office speaks English and Chinese only: there, a storefront-only
 * language (Spanish, …) is passed over like one we do not have (contract: the back office
 * falls back to Chinese; its language switch offers English).
 */
export function chooseLanguage(pathname: string, cookie: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  const offered = languagesFor(pathname);
  return languageOfCookieHeader(cookie, offered) ?? languageOfAcceptLanguage(acceptLanguage, offered) ?? defaultLanguageFor(pathname);
}
