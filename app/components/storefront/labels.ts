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

export function currencyName(t: Translate, code: CurrencyCode): string {
  switch (code) {
    case "CNY":
      return t("common.currencies.CNY");
    case "USD":
      return t("common.currencies.USD");
    case "EUR":
      return t("common.currencies.EUR");
    case "GBP":
      return t("common.currencies.GBP");
    case "JPY":
      return t("common.currencies.JPY");
    case "KRW":
      return t("common.currencies.KRW");
    case "AUD":
      return t("common.currencies.AUD");
    case "CAD":
      return t("common.currencies.CAD");
  }
}
