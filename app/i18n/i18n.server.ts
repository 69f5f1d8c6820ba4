/**
 * Every catalogue of every language, for the server (rendering pages and e-mails), and the
 * reader's language of a request.
 */
import { ALL_CATALOGUES } from "./catalogues/all.server";
import { SHOP_MESSAGES } from "./catalogues/messages/shop";
import { ADMIN_MESSAGES } from "./catalogues/messages/admin";
import { addCatalogue, setMessageTranslator, setTextRecorder, translatorFor, type Translate } from "./i18n";
import { chooseLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from "./languages";
import { addMessagePairs, addTranslatedMessages, translateMessage } from "./messages";
import { requestScope } from "~/lib/request-scope.server";

for (const language of LANGUAGES) {
  const { shop, email, admin, messages } = ALL_CATALOGUES[language];
  addCatalogue(language, shop);
  addCatalogue(language, email);
  if (admin) addCatalogue(language, admin);
  if (messages) addTranslatedMessages(language, [...SHOP_MESSAGES, ...ADMIN_MESSAGES], messages);
  else {
    const pairLanguage = language === "zh-CN" ? "zh-CN" : "en";
    addMessagePairs(pairLanguage, SHOP_MESSAGES);
    addMessagePairs(pairLanguage, ADMIN_MESSAGES);
  }
}

// A request notes the texts and translated messages it used: a storefront page carries
// those of its language (app/i18n/page-texts.tsx) and hydrates with them, without the
// language's whole catalogue (decision 031)
function note(pick: "texts" | "messages", language: Language, key: string, text: string): void {
  const scope = requestScope.getStore();
  if (!scope) return;
  const byLanguage = (scope[pick] ??= new Map());
  let used = byLanguage.get(language);
  if (!used) byLanguage.set(language, (used = new Map()));
  used.set(key, text);
}
setTextRecorder((language, key, text) => note("texts", language, key, text));
setMessageTranslator((language, text) => {
  const said = translateMessage(language, text);
  if (said !== text) note("messages", language, text, said);
  return said;
});

/** The page's render starts: what the loaders used is not the page's (their words arrive as data). */
export function forgetUsedInThisRequest(): void {
  const scope = requestScope.getStore();
  if (scope) scope.texts = scope.messages = undefined;
}

/** The texts (by key) and translated messages (by the message as given) in `language` that this request has used so far. */
export function usedInThisRequest(language: Language): { texts: Record<string, string>; messages: Record<string, string> } {
  const scope = requestScope.getStore();
  return {
    texts: Object.fromEntries(scope?.texts?.get(language) ?? []),
    messages: Object.fromEntries(scope?.messages?.get(language) ?? []),
  };
}

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The reader's language for this request (cookie, Accept-Language, the area's default), or for another path of the site. */
export function readLanguage(request: Request, pathname = new URL(request.url).pathname): Language {
  return chooseLanguage(pathname, request.headers.get("Cookie"), request.headers.get("Accept-Language"));
}

/** The translator for this request's reader. */
export function translatorOf(request: Request): Translate {
  return translatorFor(readLanguage(request));
}

/** The Set-Cookie value that keeps a language for a year (not secret: not signed). */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export { translatorFor } from "./i18n";
export { translateMessage } from "./messages";
