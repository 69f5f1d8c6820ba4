/**
 * Products: reading them (lists, search, a product and its views) and writing them (the back
 * office's forms and /api, the listing watch's price, the marketplace import's sync).
 */
import { ApiError } from "~/lib/api.server";
import { countsAsView } from "~/lib/crawlers";
import { asksForPageData } from "~/lib/request-scope.server";
import { getDb, type DB } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { answerDependsOn } from "~/lib/request-scope.server";
import type { Access } from "~/lib/permissions";
import { categoryWithChildren, findCategory } from "~/models/category.server";
import { qcFileUrlsOfProduct, setLinkedQcImages } from "~/models/qc.server";
import {
  countCatalogue,
  deleteProduct,
  findProductById,
  findProductByPlatformItem,
  takeListingTurn,
  findProductDetail,
  findProductsByItemId,
  insertProduct,
  insertProductOnce,
  listProducts,
  searchProducts,
  topProducts,
  updateProduct,
  type ListFilter,
  type Page,
  type Product,
  type ProductInput,
  type ProductSort,
  type ProductWithSkus,
  type SkuInput,
} from "~/models/product.server";
import type { User } from "~/models/user.server";
import {
  CATALOGUE_MESSAGES as M,
  type Platform,
  type ProductBody,
  type ProductUpdateBody,
  type SyncExternalBody,
} from "~/schemas/catalogue";
import { countProductView, flushViews, unwrittenViews, viewsWrittenAtOnce, writeViewsNow } from "../view-counts.server";
import { findIssuedUpload, removeUpload } from "../uploads.server";
import type { Actor } from "../permissions.server";
import { pagesChanged, staffWrite } from "../writes.server";
import { correctSearch, normalizeSearch, readSearch, termsOf, type SearchPart } from "../search.server";
import { isUniqueViolation } from "~/lib/db-errors.server";
import { storefrontFilter } from "./common.server";

// ---------------------------------------------------------------- reading

export const notFound = () => new ApiError(404, M.productNotFound, "NOT_FOUND");

/** Views are counted for people, not crawlers, and not when the caller asks not to (nor for a page's data: its page counted). */
export function shouldCountView(request: Request, incrementView: string | null): boolean {
  if (asksForPageData()) return false;
  return countsAsView(request.headers.get("User-Agent"), incrementView);
}

/** A product with its SKUs and category (a direct link always shows it). */
export async function getProduct(id: number, options: { countView?: boolean } = {}): Promise<ProductWithSkus> {
  // written before the read where views are written at once (PostgreSQL): the count read
  // then holds this view and every instance's before it (a view of no product changes nothing)
  const countFirst = options.countView && viewsWrittenAtOnce();
  if (countFirst) {
    countProductView(id);
    await writeViewsNow();
  }
  const product = await findProductDetail(getDb(), id);
  if (!product) throw notFound();
  if (options.countView && !countFirst) countProductView(id);
  product.viewCount += unwrittenViews(id);
  return product;
}

/** Counts one view of a product already read (its count then includes it). */
export async function countViewOf(product: ProductWithSkus): Promise<void> {
  countProductView(product.id);
  product.viewCount += 1;
  await writeViewsNow();
}

/** A product by its marketplace item id; with the platform, or the first one found. */
export async function getProductByItem(
  itemId: string,
  platform: Platform | null,
  options: { countView?: boolean } = {},
): Promise<ProductWithSkus> {
  const db = getDb();
  const found = platform ? await findProductByPlatformItem(db, platform, itemId) : (await findProductsByItemId(db, itemId))[0];
  if (!found) throw notFound();
  return getProduct(found.id, options);
}

/** The shopper's filters of lists and searches (docs/product/storefront.md, "Filters and sorts"). */
export type ShopperFilters = {
  /** only these marketplaces (none: all) */
  platform?: Platform[];
  /** price bounds in CNY, inclusive */
  minPrice?: number | null;
  maxPrice?: number | null;
  /** only products with approved QC photos */
  hasQc?: boolean | null;
};

export type ListOptions = ShopperFilters & {
  page: number;
  limit: number;
  isExternal?: boolean | null;
  categoryId?: number | null;
  q?: string;
  sort?: Exclude<ProductSort, "relevance">;
  /** the external products screen: only listings the watch marked unavailable */
  unavailableOnly?: boolean;
  /** count no further (the search page's list of everything: "more than 500") */
  countCap?: number;
};

/** The model's filter of the shopper's filters (prices to fen: the lower bound up, the upper down, so both stay inclusive). */
function shopperFilter(filters: ShopperFilters): ListFilter {
  return {
    platforms: filters.platform?.length ? filters.platform : undefined,
    minPriceFen: filters.minPrice !== null && filters.minPrice !== undefined ? Math.ceil(filters.minPrice * 100 - 1e-6) : undefined,
    maxPriceFen: filters.maxPrice !== null && filters.maxPrice !== undefined ? Math.floor(filters.maxPrice * 100 + 1e-6) : undefined,
    qc: filters.hasQc ? "with" : undefined,
  };
}

async function categoryFilter(categoryId: number | null | undefined): Promise<number[] | undefined> {
  if (!categoryId) return undefined;
  const ids = await categoryWithChildren(getDb(), categoryId);
  // an unknown category lists nothing (an id no row has)
  return ids.length ? ids : [-1];
}

/** A page of products for a caller (storefront rules unless they manage the catalogue). */
export async function listCatalogue(options: ListOptions, access?: Access | null): Promise<Page<Product> & { totalCapped: boolean }> {
  if (options.sort === "popular") answerDependsOn("product-views");
  await flushViews();
  const filter = await storefrontFilter(access);
  return listProducts(getDb(), {
    ...filter,
    ...shopperFilter(options),
    countCap: options.countCap,
    isExternal: options.isExternal ?? undefined,
    categoryIds: await categoryFilter(options.categoryId),
    page: options.page,
    limit: options.limit,
    sort: options.sort,
    nameContains: options.q,
    unavailableOnly: options.unavailableOnly,
  });
}

export type SearchOptions = ShopperFilters & {
  q: string;
  page: number;
  limit: number;
  categoryId?: number | null;
  sortBy: ProductSort;
  isExternal?: boolean | null;
};

/** Fewer matches than this and a search also tries what its typos probably meant. */
export const FEW_RESULTS = 5;

export type SearchResult = Page<Product> & {
  totalCapped: boolean;
  /** the search as corrected, when its typos' corrections were searched too ("nikee" → "nike") */
  correctedTo: string | null;
  /** on no results: a search that finds products (the parts that find something, corrected) */
  didYouMean: string | null;
  /**
   * Words of the search that no product holds, left out because the others find products
   * together (shown as "no product has …"); empty when every word was searched.
   */
  missingWords: string[];
};

/**
 * Full-text search with the storefront rules, forgiving (services/search.server.ts):
 * aliases always, typo corrections when the search finds few, a suggestion when it finds
 * nothing. User input never reaches FTS syntax.
 */
export async function searchCatalogue(options: SearchOptions, access?: Access | null): Promise<SearchResult> {
  if (options.sortBy === "popular") answerDependsOn("product-views");
  await flushViews();
  const storefront = await storefrontFilter(access);
  const filter: ListFilter = {
    ...storefront,
    ...shopperFilter(options),
    isExternal: options.isExternal ?? undefined,
    categoryIds: await categoryFilter(options.categoryId),
  };
  const run = (parts: SearchPart[]) =>
    searchProducts(getDb(), termsOf(parts), { ...filter, page: options.page, limit: options.limit, sort: options.sortBy });
  const parts = await readSearch(options.q);
  let result = await run(parts);
  let correctedTo: string | null = null;
  let corrected: Awaited<ReturnType<typeof correctSearch>> = null;
  if (result.totalItems < FEW_RESULTS) {
    corrected = await correctSearch(parts);
    if (corrected) {
      const wider = await run(corrected.parts);
      if (wider.totalItems > result.totalItems) {
        result = wider;
        correctedTo = corrected.text;
      }
    }
  }
  let didYouMean: string | null = null;
  let missingWords: string[] = [];
  if (result.totalItems === 0) {
    // the parts that find something on their own (corrected), if together they find
    // products: a search the suggestion's link opens, without the shopper's filters
    const plain = async (some: SearchPart[]) =>
      (await searchProducts(getDb(), termsOf(some), { ...storefront, page: 1, limit: 1, sort: "newest" })).totalItems > 0;
    const searched = corrected?.parts ?? parts;
    const finding: SearchPart[] = [];
    for (const part of searched) if (await plain([part])) finding.push(part);
    const suggestion = finding.map((part) => part.typed).join(" ");
    // a word no product holds does not sink the others ("air jordan" where no product says
    // "air"), nor does one that no product holds together with them ("air force one"):
    // the most words that find products together are the answer, the later words left
    // out first, and the page says which words were left out
    let keep = finding;
    if (keep.length > 1 && !(await plain(keep))) {
      let fewer: SearchPart[] | null = null;
      for (let drop = keep.length - 1; drop >= 0 && !fewer; drop--) {
        const some = keep.filter((_, at) => at !== drop);
        if (await plain(some)) fewer = some;
      }
      keep = fewer ?? [];
    }
    if (keep.length && keep.length < searched.length) {
      const without = await run(keep);
      if (without.totalItems > 0) {
        result = without;
        missingWords = searched.filter((part) => !keep.includes(part)).map((part) => part.typed);
        if (corrected && keep.some((part) => corrected!.parts.includes(part) && !parts.includes(part))) {
          correctedTo = keep.map((part) => part.typed).join(" ");
        }
      }
    }
    if (result.totalItems === 0 && finding.length && suggestion !== normalizeSearch(options.q) && (await plain(finding))) {
      didYouMean = suggestion;
    }
  }
  return { ...result, correctedTo, didYouMean, missingWords };
}

/**
 * Home page lists: recommended (newest) and hot (most viewed, by the views written: at most
 * a second behind, so the page is kept between writes rather than dropped at every view).
 */
export async function homeLists(access?: Access | null): Promise<{ recommended: Product[]; hot: Product[] }> {
  answerDependsOn("written-product-views");
  const filter = await storefrontFilter(access);
  const db = getDb();
  const [recommended, hot] = await Promise.all([
    topProducts(db, { ...filter, by: "newest", limit: 8 }),
    topProducts(db, { ...filter, by: "views", limit: 8 }),
  ]);
  return { recommended, hot };
}

export async function catalogueCounts(): Promise<{
  local: number;
  external: number;
  categories: number;
  qcApproved: number;
  qcPending: number;
}> {
  return countCatalogue(getDb());
}

// ---------------------------------------------------------------- writing products

function toSkuInputs(skus: ProductBody["skus"]): SkuInput[] | undefined {
  return skus?.map((sku) => ({
    name: sku.sku_name,
    priceCny: sku.sku_price,
    stock: sku.sku_stock,
    thumbnailUrl: sku.sku_thumbnail_url ?? null,
  }));
}

async function assertCategoryExists(categoryId: number | null | undefined) {
  if (!categoryId) return;
  if (!(await findCategory(getDb(), categoryId))) {
    throw new ApiError(400, M.categoryNotFound, "VALIDATION_ERROR", [{ field: "category_id", message: M.categoryNotFound }]);
  }
}

/**
 * 409 when the listing already has another product: the same platform and item id, or the
 * Taobao/Tmall twin (one listing on either; the unique index sees one platform only).
 * Call inside the write's transaction.
 */
async function assertListingFree(db: DB, platform: Platform, itemId: string, self: number | null): Promise<void> {
  await takeListingTurn(db, platform, itemId);
  const other = await findProductByPlatformItem(db, platform, itemId);
  if (other && other.id !== self) throw duplicate(other.platform ?? platform, itemId);
}

const duplicate = (platform: string, itemId: string): ApiError =>
  new ApiError(409, `${M.duplicateProduct} (${platform} ${itemId})`, "CONFLICT", [
    { field: "platform_item_id", message: M.duplicateProduct },
  ]);

function bodyToInput(body: Partial<ProductBody>): Partial<ProductInput> {
  const input: Partial<ProductInput> = {};
  if (body.name !== undefined) input.name = body.name;
  if (body.description !== undefined) input.description = body.description;
  if (body.price_cny !== undefined) input.priceCny = body.price_cny;
  if (body.category_id !== undefined) input.categoryId = body.category_id;
  if (body.main_images !== undefined) input.images = body.main_images;
  if (body.platform !== undefined) input.platform = body.platform;
  if (body.platform_item_id !== undefined) input.platformItemId = body.platform_item_id;
  if (body.original_url !== undefined) input.originalUrl = body.original_url;
  if (body.shop_name !== undefined) input.shopName = body.shop_name;
  if (body.show_in_listing !== undefined) input.showInListing = body.show_in_listing;
  if (body.is_external !== undefined) input.isExternal = body.is_external;
  return input;
}

/**
 * Creates a local product (docs/product/admin.md 4: is_external is always false for products made
 * in the admin; shop fields are dropped). 409 when the marketplace item already exists.
 */
export const createProduct = staffWrite(
  { requires: { permission: "product.create" }, stales: ["shop"] },
  async (body: ProductBody, actor: Actor): Promise<ProductWithSkus> => {
    await assertCategoryExists(body.category_id);
    const input = { ...bodyToInput(body), name: body.name, isExternal: false, shopName: null } as ProductInput;
    try {
      const product = await getDb()
        .transaction()
        .execute(async (trx) => {
          if (input.platform && input.platformItemId) await assertListingFree(trx, input.platform, input.platformItemId, null);
          const inserted = await insertProduct(trx, input, toSkuInputs(body.skus) ?? [], actor.user.id);
          if (body.qc_images?.length) await setLinkedQcImages(trx, inserted.id, body.qc_images, actor.user.id);
          return inserted;
        });
      return getProduct(product.id);
    } catch (error) {
      if (isUniqueViolation(error) && body.platform && body.platform_item_id) throw duplicate(body.platform, body.platform_item_id);
      throw error;
    }
  },
);

/**
 * Applies the fields given; `skus` (when given) replaces the product's SKUs, `qc_images`
 * the QC photos given by address (never the uploaded ones).
 */
export const updateProductByAdmin = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"] },
  async (id: number, body: ProductUpdateBody, actor: Actor): Promise<ProductWithSkus> => {
    const current = await findProductById(getDb(), id);
    if (!current) throw notFound();
    await assertCategoryExists(body.category_id);
    const input = bodyToInput(body);
    const platform = input.platform !== undefined ? input.platform : current.platform;
    const itemId = input.platformItemId !== undefined ? input.platformItemId : current.platformItemId;
    if (Boolean(platform) !== Boolean(itemId)) {
      throw new ApiError(400, M.platformPair, "VALIDATION_ERROR", [
        { field: platform ? "platform_item_id" : "platform", message: M.platformPair },
      ]);
    }
    try {
      await getDb()
        .transaction()
        .execute(async (trx) => {
          if (platform && itemId) await assertListingFree(trx, platform, itemId, id);
          await updateProduct(trx, id, input, toSkuInputs(body.skus));
          if (body.qc_images !== undefined) await setLinkedQcImages(trx, id, body.qc_images, actor.user.id);
        });
    } catch (error) {
      if (isUniqueViolation(error) && platform && itemId) throw duplicate(platform, itemId);
      throw error;
    }
    return getProduct(id);
  },
);

/** The listing watch's price update of an external product (the price seen on its marketplace). */
export async function setWatchedPrice(id: number, priceCny: number): Promise<void> {
  await updateProduct(getDb(), id, { priceCny });
  pagesChanged(["shop"]);
}

/** Deletes a product (its SKUs, collections and QC photos go with it) and its QC photos' files. */
async function deleteProductAndFiles(id: number): Promise<boolean> {
  const db = getDb();
  const qcFiles = await qcFileUrlsOfProduct(db, id);
  if (!(await deleteProduct(db, id))) return false;
  for (const url of qcFiles) {
    const upload = await findIssuedUpload(url);
    if (upload)
      await removeUpload(upload).catch((error) => log.warn(`product ${id}: QC file ${url} not removed: ${(error as Error).message}`));
  }
  return true;
}

export const deleteProductByAdmin = staffWrite(
  { requires: { permission: "product.delete" }, stales: ["shop"] },
  async (id: number, _actor: Actor): Promise<void> => {
    if (!(await deleteProductAndFiles(id))) throw notFound();
  },
);

/** Deletes many products (the back office's bulk delete): each on its own, reporting what failed. */
export const deleteProductsByAdmin = staffWrite(
  { requires: { permission: "product.delete" }, stales: ["shop"], changedWhen: (result) => result.deleted > 0 },
  async (ids: number[], _actor: Actor): Promise<{ deleted: number; failed: Array<{ id: number; reason: string }> }> => {
    const failed: Array<{ id: number; reason: string }> = [];
    let deleted = 0;
    for (const id of new Set(ids)) {
      if (await deleteProductAndFiles(id)) deleted += 1;
      else failed.push({ id, reason: M.productNotFound });
    }
    return { deleted, failed };
  },
);

/**
 * POST /api/products/sync-external: the imported product, by (platform, item id). A new
 * item is created (once, even under parallel calls); an existing one is updated only by
 * a caller who may edit products; anyone else gets it as it is.
 */
export async function syncExternalProduct(
  body: SyncExternalBody,
  actor: { user: User; access: Access },
): Promise<{ product: ProductWithSkus; created: boolean }> {
  // what the body gives; a field left out is not a change (an editor's sync keeps it)
  const given: Partial<ProductInput> = {
    name: body.title.length < 3 ? `${body.title} (${body.itemId})` : body.title,
    ...(body.description !== undefined
      ? {
          description: Array.isArray(body.description) ? body.description.filter(Boolean).join("\n\n") : body.description,
          descriptionItems: Array.isArray(body.description) ? body.description : [],
        }
      : {}),
    ...(body.price !== undefined ? { priceCny: body.price } : {}),
    ...(body.images !== undefined ? { images: body.images } : {}),
    ...(body.originalUrl !== undefined ? { originalUrl: body.originalUrl } : {}),
    ...(body.shopName !== undefined ? { shopName: body.shopName } : {}),
    ...(body.isExternalProduct !== undefined ? { isExternal: body.isExternalProduct } : {}),
    ...(body.showInListing !== undefined ? { showInListing: body.showInListing } : {}),
  };
  const input: ProductInput & { platform: Platform; platformItemId: string } = {
    description: null,
    descriptionItems: [],
    priceCny: null,
    images: [],
    originalUrl: null,
    shopName: null,
    isExternal: true,
    showInListing: true,
    ...given,
    name: given.name!,
    platform: body.source,
    platformItemId: body.itemId,
  };
  // one row per SKU name (the marketplace's own data may repeat one): the first wins
  const names = new Set<string>();
  const skus = (toSkuInputs(body.skus) ?? []).filter((sku) => !names.has(sku.name.toLowerCase()) && names.add(sku.name.toLowerCase()));
  const db = getDb();
  const { product, created } = await db.transaction().execute((trx) => insertProductOnce(trx, input, skus, actor.user.id));
  if (created) pagesChanged(["shop"]);
  else if (actor.access.allPermissions.includes("product.edit")) {
    await db.transaction().execute((trx) => updateProduct(trx, product.id, given, skus.length ? skus : undefined));
    pagesChanged(["shop"]);
  }
  return { product: await getProduct(product.id), created };
}
