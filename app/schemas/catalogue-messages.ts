/**
 * The catalogue's messages (the contract's words: the /api gives them as they are, the
 * pages in the reader's language, app/i18n/catalogues/messages/). Apart from the rules
 * (catalogue-rules.ts), so that a page whose code needs a rule's constant does not carry
 * every message with it (a shared browser chunk holds whole files).
 */
import { PRODUCT_NAME_MAX, PRODUCT_NAME_MIN } from "./catalogue-rules";

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
