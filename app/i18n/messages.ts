/**
 * The messages that services and schemas give (the contract's words, which the /api keeps)
 * as a page shows them, in the reader's language: each pair says one message in both
 * languages (app/i18n/catalogues/messages/), a message with data names it `{$name}`. The
 * browser loads this module with its page's pairs, as their own chunk: the pages visitors
 * read do not carry it.
 */
import { pluralForm, setMessageTranslator } from "./i18n";
import type { Language } from "./languages";
import type { MessagePair, MessageText, MessageTranslations } from "./catalogues/types";

/** The languages the message pairs are written in. */
type PairLanguage = keyof MessagePair;

/** per language: a message's text (either language's) → its text in this language */
const messages = new Map<Language, Map<string, MessageText>>();
/** per language: the messages with data (`{$name}`), as patterns that find the data */
const patterns = new Map<Language, Array<{ pattern: RegExp; names: string[]; target: MessageText }>>();
const DATA = /\{\$(\w+)\}/g;

/** For each pair, the texts of both languages leading to this language's. */
export function messagesIn(language: PairLanguage, pairs: MessagePair[]): Record<string, MessageText> {
  const map: Record<string, MessageText> = {};
  for (const pair of pairs) {
    for (const text of Object.values(pair).flat()) if (!(text in map)) map[text] = pair[language];
  }
  return map;
}

/** Adds the page messages' translations of a language (the message's own text is its key). */
export function addMessages(language: Language, translations: Record<string, MessageText>): void {
  let map = messages.get(language);
  if (!map) messages.set(language, (map = new Map()));
  let found = patterns.get(language);
  if (!found) patterns.set(language, (found = []));
  for (const [text, translation] of Object.entries(translations)) {
    if (!text.includes("{$")) {
      map.set(text, translation);
      continue;
    }
    const names: string[] = [];
    const source = text
      .split(DATA)
      .map((part, index) => (index % 2 === 0 ? part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : (names.push(part), "(.+?)")))
      .join("");
    found.push({ pattern: new RegExp(`^${source}$`, "s"), names, target: translation });
  }
}

/** A message's text in `language` with the data it names filled in (English picks one or other by the count). */
function fill(language: Language, target: MessageText, data: Record<string, string>): string {
  const text = typeof target === "string" ? target : target[pluralForm(language, Number(data.count)) === "one" ? 0 : 1];
  return text.replace(DATA, (whole, name: string) => data[name] ?? whole);
}

/** A whole message in `language`: one a pair names word for word, or one whose data a pattern finds. */
function knownMessage(language: Language, text: string): string | undefined {
  const whole = messages.get(language)?.get(text);
  if (whole !== undefined) return fill(language, whole, {});
  for (const { pattern, names, target } of patterns.get(language) ?? []) {
    const match = pattern.exec(text);
    if (match) return fill(language, target, Object.fromEntries(names.map((name, index) => [name, match[index + 1]])));
  }
  return undefined;
}

/**
 * Adds a storefront-only language's messages: each pair's texts (English and Chinese) lead
 * to its translation (by the English text; the `other` form where English has two), or to
 * the English when it has none, never to the Chinese a contract message may be.
 */
export function addTranslatedMessages(language: Language, pairs: MessagePair[], translations: MessageTranslations): void {
  const map: Record<string, MessageText> = {};
  for (const pair of pairs) {
    const english = pair.en;
    const target = translations[typeof english === "string" ? english : english[1]] ?? english;
    for (const text of Object.values(pair).flat()) if (!(text in map)) map[text] = target;
  }
  addMessages(language, map);
  setMessageTranslator(translateMessage);
}

/** Adds a language's pairs and has the pages' `message()` translate through them. */
export function addMessagePairs(language: PairLanguage, pairs: MessagePair[]): void {
  addMessages(language, messagesIn(language, pairs));
  setMessageTranslator(translateMessage);
}

/** A service's or schema's message as the reader's language says it (unknown ones as they are). */
export function translateMessage(language: Language, text: string): string {
  if (!text || !messages.has(language)) return text;
  const whole = knownMessage(language, text);
  if (whole !== undefined) return whole;
  const colon = text.indexOf(": ");
  // "photo.png: <a known message>": upload errors name the file before the reason
  const reason = colon > 0 ? knownMessage(language, text.slice(colon + 2)) : undefined;
  if (reason !== undefined) return `${text.slice(0, colon)}: ${reason}`;
  // "<a known message>: 12" or "<a known message> (weidian 123)": the data it names after it
  for (const at of [colon, text.indexOf(" (")]) {
    const head = at > 0 ? knownMessage(language, text.slice(0, at)) : undefined;
    if (head !== undefined) return head + text.slice(at);
  }
  return text;
}
