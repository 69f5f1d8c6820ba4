/**
 * The storefront's names of fixed choices (marketplaces, sorts, listing sources, currencies)
 * in the reader's language: the schemas and app/lib/currency.ts keep the English ones for the /api and the back office.
 */
import type { Translate } from "~/i18n/i18n";
import type { CurrencyCode } from "~/lib/currency";
import type { Platform, SearchSort } from "~/schemas/catalogue-rules";

export function platformName(t: Translate, platform: Platform): string {
  switch (platform) {
    case "weidian":
      return t("shop.platform.weidian");
    case "taobao":
      return t("shop.platform.taobao");
    case "tmall":
      return t("shop.platform.tmall");
    case "1688":
      return t("shop.platform.1688");
  }
}

export function sortName(t: Translate, sort: SearchSort): string {
  switch (sort) {
    case "relevance":
      return t("shop.filters.sortRelevance");
    case "newest":
      return t("shop.filters.sortNewest");
    case "price_asc":
      return t("shop.filters.sortPriceAsc");
    case "price_desc":
      return t("shop.filters.sortPriceDesc");
    case "popular":
      return t("shop.filters.sortPopular");
    case "qc":
      return t("shop.filters.sortQc");
  }
}

export function listingSourceName(t: Translate, source: "" | "local" | "external"): string {
  switch (source) {
    case "":
      return t("shop.filters.sourceAll");
    case "local":
      return t("shop.filters.sourceLocal");
    case "external":
      return t("shop.filters.sourceExternal");
  }
}

const currencyNames = new Map<string, Intl.DisplayNames>();

/** A currency's name in the reader's language (Intl's names: every language, no catalogue texts). */
export function currencyName(language: string, code: CurrencyCode): string {
  let names = currencyNames.get(language);
  if (!names) currencyNames.set(language, (names = new Intl.DisplayNames([language, "en"], { type: "currency" })));
  return names.of(code) ?? code;
}
