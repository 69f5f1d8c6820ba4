/**
 * The back office's catalogue of one language, for the browser (with the storefront's of
 * the same language: the site's chrome is on every page): loaded before an /admin page
 * hydrates (app/entry.client.tsx) and before a client navigation into the back office
 * renders (the /admin layout's clientLoader). The storefront's pages never load it.
 */
import type { Language } from "./languages";
import { addCatalogue, loadStorefrontCatalogue, loadStorefrontMessages, once } from "./i18n";

export function loadBackOfficeCatalogue(language: Language): Promise<void> {
  return once(`back office ${language}`, () =>
    Promise.all([
      language === "zh-CN"
        ? import("./catalogues/zh-CN/admin").then((m) => m.default)
        : import("./catalogues/en/admin").then((m) => m.default),
      import("./catalogues/messages/admin"),
      import("./messages"),
      loadStorefrontCatalogue(language),
      loadStorefrontMessages(language),
    ]).then(([catalogue, { ADMIN_MESSAGES }, { addMessagePairs }]) => {
      addCatalogue(language, catalogue);
      // the back office speaks English and Chinese only (app/i18n/languages.ts)
      addMessagePairs(language === "zh-CN" ? "zh-CN" : "en", ADMIN_MESSAGES);
    }),
  );
}
