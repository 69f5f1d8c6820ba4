/**
 * Catalogue inputs: one zod schema per input, shared by pages and /api. Limits are in
 * catalogue-rules.ts, messages in catalogue-messages.ts.
 */
import { z } from "zod";
import { isCurrencyCode } from "~/lib/currency";
import { plainLine } from "~/lib/text";
import {
  ADMIN_PRODUCT_PAGE_SIZES,
  COLLECTION_SORTS,
  COLLECTIONS_PAGE_SIZE,
  IMAGES_MAX,
  LIST_LIMIT_MAX,
  LISTING_PAGE_SIZE_DEFAULT,
  LISTING_PAGE_SIZES,
  PLATFORMS,
  PRICE_FILTER_MAX,
  PRODUCT_LIST_PAGE_SIZE,
  PRODUCT_NAME_MAX,
  PRODUCT_NAME_MIN,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_TERM_MAX,
  SKUS_MAX,
} from "./catalogue-rules";
import { CATALOGUE_MESSAGES as M } from "./catalogue-messages";

export * from "./catalogue-rules";
export * from "./catalogue-messages";

export const blankToNull = (value: unknown) => (value === "" || value === undefined ? null : value);
export const booleanish = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "on", "off"]), z.number()])
  .transform((v) => v === true || v === "true" || v === "1" || v === "on" || v === 1);

export const httpUrl = (message: string) =>
  z
    .string(message)
    .trim()
    .max(2000, message)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, message);

/** An image: an outside https/http address, or a file uploaded to this site. */
const imageUrl = z
  .string(M.imageUrlInvalid)
  .trim()
  .max(2000, M.imageUrlInvalid)
  .refine(
    (value) => (/^\/uploads\/(products|qc)\/[\w./-]+$/.test(value) && !value.includes("..")) || /^https?:\/\/[^\s]+$/i.test(value),
    M.imageUrlInvalid,
  );

/** Comma-separated or a list; trimmed, empties dropped (docs/product/admin.md 5). */
export const imageList = z
  .union([z.array(z.string()), z.string()])
  .transform((value) => (Array.isArray(value) ? value : value.split(",")).map((v) => v.trim()).filter(Boolean))
  .pipe(z.array(imageUrl).max(IMAGES_MAX, `At most ${IMAGES_MAX} images`));

const price = z.preprocess(
  blankToNull,
  z.coerce.number(M.priceInvalid).finite(M.priceInvalid).min(0, M.priceInvalid).max(100_000_000, M.priceInvalid).nullable(),
);

export const platformSchema = z.enum(PLATFORMS, M.platformInvalid);
const itemId = z
  .string()
  .trim()
  .min(1, M.itemIdRequired)
  .max(40, M.itemIdInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, M.itemIdInvalid);

export const skuInputSchema = z.object({
  id: z.coerce.number().int().positive().optional(),
  sku_name: z.string(M.skuNameRequired).trim().min(1, M.skuNameRequired).max(200, "SKU name is too long"),
  sku_price: z
    .preprocess(blankToNull, z.coerce.number(M.skuPriceInvalid).finite().min(0, M.skuPriceInvalid).max(100_000_000).nullable())
    .transform((v) => v ?? 0),
  sku_stock: z
    .preprocess(
      blankToNull,
      z.coerce.number(M.skuStockInvalid).int(M.skuStockInvalid).min(0, M.skuStockInvalid).max(1_000_000_000).nullable(),
    )
    .transform((v) => v ?? 0),
  sku_thumbnail_url: z.preprocess(blankToNull, imageUrl.nullable()).optional(),
});

/** sku_name is unique within a product (docs/product/admin.md 3), compared without case. */
function uniqueSkuNames(skus: Array<{ sku_name: string }>, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  skus.forEach((sku, index) => {
    const key = sku.sku_name.toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: "custom", message: M.skuDuplicate, path: [index, "sku_name"] });
    seen.add(key);
  });
}

const skuList = z.array(skuInputSchema).max(SKUS_MAX, `At most ${SKUS_MAX} SKUs`).superRefine(uniqueSkuNames);

const productFields = {
  // an empty name says so alone, not also "at least 3 characters"
  name: z
    .string(M.nameRequired)
    .trim()
    .min(1, { message: M.nameRequired, abort: true })
    .min(PRODUCT_NAME_MIN, M.nameMin)
    .max(PRODUCT_NAME_MAX, M.nameMax),
  description: z.preprocess(blankToNull, z.string().max(20_000, "The description is too long").nullable()).optional(),
  price_cny: price.optional(),
  category_id: z
    .preprocess(blankToNull, z.coerce.number(M.categoryIdInvalid).int(M.categoryIdInvalid).positive(M.categoryIdInvalid).nullable())
    .optional(),
  main_images: imageList.optional(),
  // QC photos given by address (docs/product/admin.md 3, 7): linked, approved; uploads go through the QC screens
  qc_images: imageList.optional(),
  platform: z.preprocess(blankToNull, platformSchema.nullable()).optional(),
  platform_item_id: z.preprocess(blankToNull, itemId.nullable()).optional(),
  original_url: z.preprocess(blankToNull, httpUrl(M.originalUrlInvalid).nullable()).optional(),
  shop_name: z.preprocess(blankToNull, z.string().trim().max(200).nullable()).optional(),
  show_in_listing: booleanish.optional(),
  skus: skuList.optional(),
};

/**
 * The admin product body (docs/product/admin.md 7): name, description, price_cny, category_id,
 * main_images (also `images`), platform, platform_item_id, original_url, skus.
 */
/** The accepted aliases of the spec's two generations of the product form. */
function productAliases(raw: unknown): unknown {
  if (!raw || typeof raw !== "object") return raw;
  const value = { ...(raw as Record<string, unknown>) };
  value.main_images ??= value.images;
  value.price_cny ??= value.price;
  return value;
}

export const productInputSchema = z
  .preprocess(productAliases, z.object({ ...productFields, is_external: booleanish.optional() }))
  .superRefine((value, ctx) => {
    const hasPlatform = Boolean(value.platform);
    const hasItem = Boolean(value.platform_item_id);
    if (hasPlatform !== hasItem)
      ctx.addIssue({ code: "custom", message: M.platformPair, path: [hasPlatform ? "platform_item_id" : "platform"] });
  });
export type ProductBody = z.infer<typeof productInputSchema>;

/** An update: every field optional, only those given change. */
export const productUpdateSchema = z.preprocess(
  productAliases,
  z.object({ ...productFields, name: productFields.name.optional(), is_external: booleanish.optional() }),
);
export type ProductUpdateBody = z.infer<typeof productUpdateSchema>;

/**
 * POST /api/products/sync-external (docs/product/storefront.md 7). Fields left out stay as they
 * are when an editor syncs an existing product (defaults apply to a new one only).
 */
export const syncExternalSchema = z.object({
  itemId: z.preprocess(
    (v) => (v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v),
    z.string(M.itemIdRequired).pipe(itemId),
  ),
  title: z.string(M.nameRequired).trim().min(1, M.nameRequired).max(PRODUCT_NAME_MAX, M.nameMax),
  price: price.optional(),
  images: imageList.optional(),
  source: platformSchema.optional().default("weidian"),
  skus: z
    .array(
      z.preprocess((raw) => {
        if (!raw || typeof raw !== "object") return raw;
        const v = raw as Record<string, unknown>;
        return {
          sku_name: v.sku_name ?? v.name ?? v.skuName,
          sku_price: v.sku_price ?? v.price,
          sku_stock: v.sku_stock ?? v.stock,
          sku_thumbnail_url: v.sku_thumbnail_url ?? v.image ?? v.thumbnail,
        };
      }, skuInputSchema),
    )
    .max(SKUS_MAX, `At most ${SKUS_MAX} SKUs`)
    .superRefine(uniqueSkuNames)
    .optional(),
  description: z
    .union([z.string().max(20_000, "The description is too long"), z.array(z.string().max(20_000, "The description is too long")).max(200)])
    .optional(),
  isExternalProduct: booleanish.optional(),
  showInListing: booleanish.optional(),
  originalUrl: z.preprocess(blankToNull, httpUrl(M.originalUrlInvalid).nullable()).optional(),
  shopName: z.preprocess(blankToNull, z.string().trim().max(200).nullable()).optional(),
});
export type SyncExternalBody = z.infer<typeof syncExternalSchema>;

export const pageParam = z.coerce
  .number()
  .int()
  .catch(1)
  .transform((v) => Math.max(1, v))
  .default(1);
export const limitParam = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .catch(fallback)
    .transform((v) => Math.min(Math.max(1, v), LIST_LIMIT_MAX))
    .default(fallback);
const optionalId = z
  .preprocess(blankToNull, z.coerce.number(M.categoryIdInvalid).int(M.categoryIdInvalid).positive(M.categoryIdInvalid).nullable())
  .optional();
const optionalBoolean = z.preprocess(blankToNull, booleanish.nullable()).optional();

/** A search term's control characters (a pasted tab, a %00) are spaces: they never reach a query or a page. */
const asPlainLine = (value: unknown) => (typeof value === "string" ? plainLine(value) : value);

/** Marketplaces: repeated (platform=weidian&platform=1688) or separated by commas. */
export const readPlatformList = (value: unknown): string[] | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  const list = (Array.isArray(value) ? value : [value])
    .flatMap((item) => String(item).split(","))
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  return list.length ? [...new Set(list)] : undefined;
};

const priceBound = (field: "minPrice" | "maxPrice") =>
  z
    .preprocess(
      blankToNull,
      z.coerce
        .number(M.priceBoundInvalid(field))
        .finite(M.priceBoundInvalid(field))
        .min(0, M.priceBoundInvalid(field))
        .max(PRICE_FILTER_MAX, M.priceBoundInvalid(field))
        .nullable(),
    )
    .optional();

/**
 * The shopper's filters on GET /api/products and /api/products/search: `platform`,
 * `minPrice` and `maxPrice` (CNY, inclusive), `hasQc` (only products with approved QC photos).
 */
const shopperFilterFields = {
  platform: z.preprocess(readPlatformList, z.array(z.enum(PLATFORMS, M.platformFilterInvalid)).optional()),
  minPrice: priceBound("minPrice"),
  maxPrice: priceBound("maxPrice"),
  hasQc: optionalBoolean,
};

function priceBoundsInOrder(query: { minPrice?: number | null; maxPrice?: number | null }, ctx: z.RefinementCtx) {
  if (query.minPrice !== null && query.minPrice !== undefined && query.maxPrice !== null && query.maxPrice !== undefined) {
    if (query.minPrice > query.maxPrice) ctx.addIssue({ code: "custom", path: ["minPrice"], message: M.priceBoundsOrder });
  }
}

/** The query keys that may be repeated (parseQuery() hands them over as lists). */
export const REPEATED_QUERY_KEYS = ["platform"] as const;

/** A list's sort: a search's without "best match" (there is no term to match). */
export const listSortSchema = z
  .string()
  .optional()
  .transform((value) => {
    const sort = sortAliases[(value ?? "").toLowerCase()] ?? "newest";
    return sort === "relevance" ? "newest" : sort;
  });

/** GET /api/products and category pages. */
export const productListQuerySchema = z
  .object({
    page: pageParam,
    limit: limitParam(PRODUCT_LIST_PAGE_SIZE),
    isExternal: optionalBoolean,
    q: z.preprocess(asPlainLine, z.string().trim().max(200).optional()),
    categoryId: optionalId,
    sortBy: listSortSchema,
    ...shopperFilterFields,
  })
  .superRefine(priceBoundsInOrder);

const sortAliases: Record<string, (typeof SEARCH_SORTS)[number]> = {
  price_asc: "price_asc",
  "price-asc": "price_asc",
  priceasc: "price_asc",
  price_low: "price_asc",
  price_desc: "price_desc",
  "price-desc": "price_desc",
  pricedesc: "price_desc",
  price_high: "price_desc",
  newest: "newest",
  date: "newest",
  latest: "newest",
  popular: "popular",
  views: "popular",
  qc: "qc",
  qc_count: "qc",
  most_qc: "qc",
  relevance: "relevance",
};

export const searchSortSchema = z
  .string()
  .optional()
  .transform((value) => sortAliases[(value ?? "").toLowerCase()] ?? "relevance");

/** GET /api/products/search: q is required (400 when empty). */
export const searchQuerySchema = z
  .object({
    q: z.preprocess(
      asPlainLine,
      z.string(M.searchTermRequired).trim().min(1, M.searchTermRequired).max(SEARCH_TERM_MAX, M.searchTermTooLong),
    ),
    page: pageParam,
    limit: limitParam(SEARCH_PAGE_SIZE),
    categoryId: optionalId,
    sortBy: searchSortSchema,
    isExternal: optionalBoolean,
    ...shopperFilterFields,
  })
  .superRefine(priceBoundsInOrder);

/**
 * The storefront's listing pages (/search, /category/:id): plain GET forms, so a bad value
 * never fails the page: unknown platforms, sorts and page sizes are dropped, and price
 * bounds that are not prices come back as `priceError` (the filter shows it, the list
 * ignores them). `min` and `max` are in the visitor's currency.
 */
export const listingPageQuerySchema = z.object({
  q: z.preprocess(asPlainLine, z.string().trim().max(SEARCH_TERM_MAX, M.searchTermTooLong).catch("")).default(""),
  page: pageParam,
  per: z.coerce
    .number()
    .catch(LISTING_PAGE_SIZE_DEFAULT)
    .transform((value) => ((LISTING_PAGE_SIZES as readonly number[]).includes(value) ? value : LISTING_PAGE_SIZE_DEFAULT))
    .default(LISTING_PAGE_SIZE_DEFAULT),
  category: z.preprocess(blankToNull, z.coerce.number().int().positive().nullable().catch(null)).default(null),
  sort: searchSortSchema,
  external: z.enum(["local", "external"]).optional().catch(undefined),
  platform: z
    .preprocess(readPlatformList, z.array(z.string()).optional())
    .transform(
      (list) => list?.filter((value): value is (typeof PLATFORMS)[number] => (PLATFORMS as readonly string[]).includes(value)) ?? [],
    ),
  min: z.string().optional().catch(undefined),
  max: z.string().optional().catch(undefined),
  qc: z.preprocess((value) => value === "1" || value === "true" || value === "on", z.boolean()),
});
export type ListingPageQuery = z.infer<typeof listingPageQuerySchema>;

/** A price bound typed in the listing's filter: empty, or a price of 0 or more (a comma may be the decimal point). */
export function readPriceBound(value: string | undefined): { value: number | null; error: boolean } {
  const text = (value ?? "").trim().replace(/\s/g, "");
  if (!text) return { value: null, error: false };
  const number = Number(/^\d+,\d{1,2}$/.test(text) ? text.replace(",", ".") : text);
  return Number.isFinite(number) && number >= 0 && number <= PRICE_FILTER_MAX
    ? { value: number, error: false }
    : { value: null, error: true };
}

export const collectionsQuerySchema = z.object({
  sortBy: z.enum(COLLECTION_SORTS).catch("date").default("date"),
  sortOrder: z.enum(["asc", "desc"]).catch("desc").default("desc"),
  page: pageParam,
  limit: limitParam(COLLECTIONS_PAGE_SIZE),
});

export const collectionBodySchema = z.object({
  productId: z.coerce.number(M.productIdRequired).int(M.productIdRequired).positive(M.productIdRequired),
});

export const categoryInputSchema = z.object({
  name: z.string(M.categoryNameRequired).trim().min(1, M.categoryNameRequired).max(100, "Category name is too long"),
  description: z
    .preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), z.string().trim().max(1000).nullable())
    .optional(),
  parent_id: z.preprocess(blankToNull, z.coerce.number(M.categoryParentInvalid).int().positive().nullable()).optional(),
  sort_order: z
    .preprocess(
      blankToNull,
      z.coerce
        .number(M.categorySortInvalid)
        .int(M.categorySortInvalid)
        .min(0, M.categorySortInvalid)
        .max(1_000_000, M.categorySortInvalid)
        .nullable(),
    )
    .optional()
    .transform((v) => v ?? undefined),
});
export type CategoryBody = z.infer<typeof categoryInputSchema>;

/** The back office's create form (docs/product/admin.md 5: '分类名称是必填的'); edit uses categoryInputSchema. */
export const categoryCreateFormSchema = categoryInputSchema.extend({
  name: z.string(M.categoryNameRequiredZh).trim().min(1, M.categoryNameRequiredZh).max(100, "Category name is too long"),
});

/** One category's sort value, set inline in the list. */
export const categorySortFormSchema = z.object({
  id: z.coerce.number(M.categoryNotFound).int(M.categoryNotFound).positive(M.categoryNotFound),
  sort_order: z.coerce
    .number(M.categorySortInvalid)
    .int(M.categorySortInvalid)
    .min(0, M.categorySortInvalid)
    .max(1_000_000, M.categorySortInvalid),
});

/** GET /admin/products and /admin/external-products: search, page and page size (10/20/50/100). */
export function adminProductListQuerySchema(defaultLimit: number) {
  return z.object({
    q: z.string().trim().max(200).catch("").default(""),
    page: pageParam,
    limit: z.coerce
      .number()
      .int()
      .refine((value) => (ADMIN_PRODUCT_PAGE_SIZES as readonly number[]).includes(value))
      .catch(defaultLimit)
      .default(defaultLimit),
    /** the external list: every listing, or only those the listing watch marked unavailable */
    listing: z.enum(["all", "unavailable"]).catch("all").default("all"),
  });
}

/** The bulk delete's selection: product ids (at least one: '请先选择要删除的商品'). */
export const productSelectionSchema = z.object({
  ids: z.array(z.coerce.number().int().positive()).min(1, M.productsNoneSelected).max(1000, "Select at most 1,000 products at a time"),
});

/** GET /admin/categories: search and page. */
export const categoryListQuerySchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  page: pageParam,
});

export const categoryBatchSortSchema = z.object({
  sortData: z
    .array(
      z.object({
        id: z.coerce.number().int().positive(),
        sort_order: z.coerce
          .number(M.categorySortInvalid)
          .int(M.categorySortInvalid)
          .min(0, M.categorySortInvalid)
          .max(1_000_000, M.categorySortInvalid),
      }),
      "sortData must be a list of {id, sort_order}",
    )
    .min(1, "sortData must not be empty")
    .max(1000),
});

export const manualRatesSchema = z.object({
  rates: z.record(z.string(), z.unknown(), "rates must be an object of currency codes to numbers"),
});

export const currencyChoiceSchema = z.object({
  currency: z.string().refine(isCurrencyCode, "Unknown currency"),
  returnTo: z.string().optional(),
});
