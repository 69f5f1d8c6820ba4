/**
 * Limits and messages of the search's words (docs/decisions/028-forgiving-search.md):
 * zod-free, so pages can import them without shipping zod. Schemas live in search.ts.
 */

export const SEARCH_ALIAS_TERM_MAX = 60;
export const SEARCH_ALIAS_ALTERNATIVES_MAX = 10;

export const SEARCH_ALIAS_MESSAGES = {
  termRequired: "Enter the word shoppers type",
  termTooLong: `The word is at most ${SEARCH_ALIAS_TERM_MAX} characters`,
  alternativesRequired: "Enter at least one word it also finds",
  alternativesTooMany: `At most ${SEARCH_ALIAS_ALTERNATIVES_MAX} words, separated by commas`,
  alternativeTooLong: `Each word is at most ${SEARCH_ALIAS_TERM_MAX} characters`,
  sameAsTerm: "A word cannot stand for itself",
  termTaken: (term: string) => `“${term}” already has an alias`,
  notFound: "Alias not found",
  created: "Alias added",
  updated: "Alias saved",
  deleted: "Alias deleted",
} as const;
