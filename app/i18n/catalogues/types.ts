/** A catalogue: nested keys to texts (i18next's `{{name}}` values, `_one`/`_other` plurals). */
export type Catalogue = { [key: string]: string | Catalogue };

/**
 * Pairs of one message in both languages: the text a service or schema gives is either.
 * A message with data names it `{$name}` in both texts (the data is kept as given); an
 * English message that says a count as singular or plural gives both forms, `[one, other]`,
 * each with `{$count}`.
 */
export type MessagePair = { en: string | [one: string, other: string]; "zh-CN": string };

/** A message's text in one language: one text, or English's [one, other] forms. */
export type MessageText = MessagePair[keyof MessagePair];

/**
 * A storefront-only language's messages (`app/i18n/catalogues/<lang>/messages.ts`): the
 * English text of a pair (for a pair whose English is `[one, other]`, its `other` form) →
 * the text in this language (`[one, other]` where English has both forms). A message it
 * lacks is shown in English.
 */
export type MessageTranslations = Record<string, string | [one: string, other: string]>;
