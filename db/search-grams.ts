/**
 * The short-term search index (products_grams): every 1- and 2-character gram of a text,
 * lowercased and NFKC-normalised, separated by spaces, so FTS5's unicode61 tokenizer
 * stores each gram as one token. Terms of 1 or 2 characters (common in Chinese: 耐克,
 * 外套, 鞋) are looked up as one token instead of scanning every name.
 *
 * Used by the search_grams() SQL function (registered on every connection in
 * db/connection.ts, called by the products triggers) and by the search query itself.
 */

/** Runs of letters and digits: grams never span a space or punctuation. */
const SEGMENT = /[\p{L}\p{N}]+/gu;

export function normalizeForSearch(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

export function searchGrams(text: string | null | undefined): string {
  if (!text) return "";
  const grams = new Set<string>();
  for (const [segment] of normalizeForSearch(text).matchAll(SEGMENT)) {
    const chars = Array.from(segment);
    for (let i = 0; i < chars.length; i++) {
      grams.add(chars[i]);
      if (i + 1 < chars.length) grams.add(chars[i] + chars[i + 1]);
    }
  }
  return [...grams].join(" ");
}

/** The letters and digits of a search term, normalised (what the indexes hold). */
export function termCharacters(term: string): string {
  return Array.from(normalizeForSearch(term).matchAll(SEGMENT), ([segment]) => segment).join("");
}
