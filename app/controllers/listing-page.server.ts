/**
 * The storefront's listing pages (/search and /category/:id) read the same filters and
 * sorts from their address (docs/product/storefront.md, "Filters and sorts"): plain GET
 * forms, so every combination is a link, kept by the paging links. Prices are typed in
 * the visitor's currency and searched in CNY.
 */
import type { ProductFiltersView } from "~/components/storefront/product-filters";
import type { CurrencyCode } from "~/lib/currency";
import { readCurrency } from "~/lib/currency.server";
import { listingPageQuerySchema, readPriceBound, type ListingPageQuery } from "~/schemas/catalogue";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import type { ShopperFilters } from "~/services/catalogue/products.server";
import { getRates } from "~/services/currency.server";

export type ListingQuery = {
  query: ListingPageQuery;
  /** the filters in the services' terms (prices in CNY) */
  filters: ShopperFilters & { isExternal: boolean | null };
  /** what the filter form shows */
  view: ProductFiltersView;
};

/** How many CNY one unit of the visitor's currency is (the rates the page shows). */
async function cnyPerUnit(currency: CurrencyCode): Promise<number> {
  return currency === "CNY" ? 1 : (await getRates()).rates[currency];
}

/** Reads a listing page's address: its query, the filters to apply and what the filter form shows. */
export async function readListingQuery(request: Request): Promise<ListingQuery> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, unknown> = Object.fromEntries(params);
  raw.platform = params.getAll("platform");
  const query = listingPageQuerySchema.parse(raw);
  const currency = readCurrency(request);
  const min = readPriceBound(query.min);
  const max = readPriceBound(query.max);
  const inOrder = min.value === null || max.value === null || min.value <= max.value;
  const priceError = min.error || max.error || !inOrder ? CATALOGUE_MESSAGES.priceFilterInvalid : null;
  const usePrices = !priceError;
  const rate = usePrices && (min.value !== null || max.value !== null) ? await cnyPerUnit(currency) : 1;
  const filters = {
    platform: query.platform,
    minPrice: usePrices && min.value !== null ? min.value * rate : null,
    maxPrice: usePrices && max.value !== null ? max.value * rate : null,
    hasQc: query.qc,
    isExternal: query.external === undefined ? null : query.external === "external",
  };
  return {
    query,
    filters,
    view: {
      sort: query.sort,
      external: query.external ?? "",
      platforms: query.platform,
      min: (query.min ?? "").trim(),
      max: (query.max ?? "").trim(),
      qc: query.qc,
      per: query.per,
      currency,
      priceError,
    },
  };
}
