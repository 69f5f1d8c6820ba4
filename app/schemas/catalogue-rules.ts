/**
 * Catalogue limits and messages (docs/product/storefront.md 5, 9; docs/product/admin.md 5, 8, 9): zod-free,
 * so pages can import them without shipping zod. Schemas live in catalogue.ts.
 */

export const PLATFORMS = ["weidian", "taobao", "tmall", "1688"] as const;
export type Platform = (typeof PLATFORMS)[number];
export const PLATFORM_LABELS: Record<Platform, string> = { weidian: "Weidian", taobao: "Taobao", tmall: "Tmall", "1688": "1688" };

/** The canonical marketplace address of an item (docs/marketplace-links.md). */
export function marketplaceUrl(platform: Platform, itemId: string): string {
  switch (platform) {
    case "weidian":
      return `https://weidian.com/item.html?itemID=${itemId}`;
    case "taobao":
      return `https://item.taobao.com/item.htm?id=${itemId}`;
    case "tmall":
      return `https://detail.tmall.com/item.htm?id=${itemId}`;
    case "1688":
      return `https://detail.1688.com/offer/${itemId}.html`;
  }
}

/**
 * The marketplace whose item numbers a platform's are: Taobao and Tmall share them (an item
 * id is one listing, and agents order Tmall items as Taobao ones), so a Tmall item is the
 * Taobao item of the same id (docs/marketplace-links.md).
 */
export function listingPlatform(platform: Platform): Platform {
  return platform === "tmall" ? "taobao" : platform;
}

/** The platforms whose products may be the listing of (platform, item id): Taobao and Tmall for either. */
export function sameListingPlatforms(platform: Platform): Platform[] {
  return listingPlatform(platform) === "taobao" ? ["taobao", "tmall"] : [platform];
}

export const PRODUCT_NAME_MIN = 3;
export const PRODUCT_NAME_MAX = 255;
export const SEARCH_PAGE_SIZE = 8;
export const COLLECTIONS_PAGE_SIZE = 10;
export const PRODUCT_LIST_PAGE_SIZE = 10;
/** docs/product/admin.md 9: the back office's lists */
export const ADMIN_CATEGORY_PAGE_SIZE = 10;
export const ADMIN_PRODUCT_PAGE_SIZES = [10, 20, 50, 100] as const;
export const ADMIN_LOCAL_PAGE_SIZE = 10;
export const ADMIN_EXTERNAL_PAGE_SIZE = 20;
export const LIST_LIMIT_MAX = 100;
export const SKUS_MAX = 200;

/** A new SKU row of the product form (docs/product/admin.md 9): "new model", price 0, stock 0. */
export const NEW_SKU = { sku_name: "new model", sku_price: "0", sku_stock: "0" } as const;
export const IMAGES_MAX = 30;
export const PRODUCT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const SEARCH_SORTS = ["relevance", "newest", "price_asc", "price_desc", "popular", "qc"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_SORT_LABELS: Record<SearchSort, string> = {
  relevance: "Best match",
  newest: "Newest",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  popular: "Most viewed",
  qc: "Most QC photos",
};
/** The longest search term. */
export const SEARCH_TERM_MAX = 200;
/** The sorts of a list without a search term (no "best match"). */
export const LIST_SORTS = ["newest", "price_asc", "price_desc", "popular", "qc"] as const satisfies readonly SearchSort[];

/** The storefront's listing pages: products a page (`per`), 24 unless the shopper picks another. */
export const LISTING_PAGE_SIZES = [12, 24, 48] as const;
export const LISTING_PAGE_SIZE_DEFAULT = 24;
/** The highest price bound a filter takes (any currency). */
export const PRICE_FILTER_MAX = 100_000_000;

/** The filter shoppers read for where a listing comes from (the API's isExternal). */
export const LISTING_SOURCE_LABELS = { "": "All listings", local: "Picked by our team", external: "Imported from marketplaces" } as const;

export const COLLECTION_SORTS = ["date", "price", "name"] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number];
