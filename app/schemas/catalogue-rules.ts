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

/** docs/product/admin.md 5, 8: the exchange-rate page. */
export const RATE_MESSAGES = {
  invalid: "请输入有效的汇率（正数）",
  saved: "手动汇率已保存",
  saveFailed: "保存汇率时出错",
  neverUpdated: "never updated",
} as const;

/**
 * The 401 of the catalogue calls that need a login (collections, sync-external, product
 * images and the catalogue's admin calls): docs/product/storefront.md 5 "Any call that needs the
 * stored token and finds none fails with 'Authentication required for this action.'",
 * docs/product/admin.md 5 "Admin calls require a stored token (…)".
 */
export const NO_TOKEN = "Authentication required for this action.";

export const CATALOGUE_MESSAGES = {
  productNotFound: "Product not found",
  categoryNotFound: "Category not found",
  searchFailed: "Failed to search products.",
  searchTermRequired: "Please enter a search term",
  searchTermTooLong: "The search term is too long",
  platformFilterInvalid: "platform must be weidian, taobao, tmall or 1688",
  priceBoundInvalid: (field: string) => `${field} must be a price of 0 or more`,
  priceBoundsOrder: "minPrice must not be more than maxPrice",
  priceFilterInvalid: "Enter prices as numbers, the lowest first",
  nameRequired: "Product name cannot be empty",
  nameMin: `Product name must be at least ${PRODUCT_NAME_MIN} characters`,
  nameMax: `Product name must be at most ${PRODUCT_NAME_MAX} characters`,
  priceInvalid: "Price must be a number of 0 or more",
  categoryIdInvalid: "Category must be a positive whole number",
  originalUrlInvalid: "The original URL must be an http or https address",
  imageUrlInvalid: "Image addresses must be http(s) URLs or images uploaded to this site",
  platformInvalid: "Platform must be weidian, taobao, tmall or 1688",
  itemIdInvalid: "The platform item id must be letters and digits",
  platformPair: "Give both the platform and the platform item id, or neither",
  skuNameRequired: "SKU name is required",
  skuDuplicate: "Each SKU name may appear only once in a product",
  skuPriceInvalid: "SKU price must be a number of 0 or more",
  skuStockInvalid: "SKU stock must be a whole number of 0 or more",
  formInvalid: "Please fix the errors in the form.",
  duplicateProduct: "A product with this platform and item id already exists",
  categoryNameRequired: "Category name is required.",
  categoryNameRequiredZh: "分类名称是必填的",
  categoryNoChanges: "No changes detected.",
  categoryParentInvalid: "A category can only be placed under a top-level category other than itself",
  categoryNameTaken: (name: string) => `A category named “${name}” already exists at this level: choose another name`,
  categoryHasChildren: "This category still has subcategories: move or delete them first",
  categoryDeleteFailed: "删除分类失败",
  productsNoneSelected: "请先选择要删除的商品",
  productDeleteFailed: "删除产品失败",
  productDeleted: "Product deleted",
  productsDeleted: (n: number) => `Deleted ${n} product${n === 1 ? "" : "s"}`,
  productsLoadFailed: "Failed to fetch products.",
  externalDeleted: "商品删除成功",
  externalBulkDeleted: (n: number) => `成功删除 ${n} 个商品`,
  externalDeleteFailed: (reason: string) => `删除商品失败: ${reason}`,
  externalBulkDeleteFailed: (reason: string) => `批量删除失败: ${reason}`,
  externalLoadFailed: "获取外部商品失败",
  categorySortInvalid: "Sort order must be a whole number of 0 or more",
  categoryCreateFailed: "创建分类失败",
  categorySortFailed: "设置排序失败",
  categoryMoveFailed: "移动分类失败",
  categoryLoadFailed: "获取分类列表失败",
  categoryCreated: "Category created",
  categoryUpdated: "Category updated",
  categoryDeleted: "Category deleted",
  categorySorted: "Sort order saved",
  productIdRequired: "Product ID is required",
  itemIdRequired: "Item ID is required",
  invalidId: "Invalid product id",
  authRequiredForAction: "Authentication required for this action.",
  imageRequired: "Please choose an image file",
  imageNotImage: "The file is not a JPG, PNG, WEBP or GIF image",
  imageTooLarge: "Image size cannot exceed 10MB",
  collected: "Added to your collection",
  uncollected: "Removed from your collection",
} as const;
