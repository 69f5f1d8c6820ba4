/**
 * The catalogue: products, categories, search, collections and the product JSON of the
 * API. Pages and /api call these same functions; they throw ApiError.
 *
 * Visibility (docs/product/admin.md 2): with show_external_products off, external products leave
 * the storefront lists (home, hot, search, categories) but a direct link or a platform
 * lookup still shows them; products with show_in_listing off are reachable only directly.
 * Callers with product permissions (the admin) always see everything.
 */
import { ApiError, type FieldError } from "~/lib/api.server";
import { contentVersion } from "~/lib/content-version.server";
import { countsAsView } from "~/lib/crawlers";
import { dataVersion, getDb, type DB } from "~/lib/db.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
import { log } from "~/lib/log.server";
import { answerDependsOn } from "~/lib/request-scope.server";
import type { Access } from "~/lib/permissions";
import {
  categoryWithChildren,
  countChildren,
  deleteCategory,
  findCategory,
  findSiblingNamed,
  insertCategory,
  listCategories,
  setSortOrders,
  updateCategory,
  type Category,
  type CategoryWithCount,
} from "~/models/category.server";
import { approvedQcUrls, qcFileUrlsOfProduct, setLinkedQcImages } from "~/models/qc.server";
import { addToCollection, isCollected, listCollection, removeFromCollection, type CollectedProduct } from "~/models/collection.server";
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
  productIdBlocks,
  productStampsInBlock,
  SEARCH_COUNT_CAP,
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
  type CategoryBody,
  type Platform,
  type ProductBody,
  type ProductUpdateBody,
  type SyncExternalBody,
} from "~/schemas/catalogue";
import { isTrue } from "~/schemas/site-settings";
import { loadSettings } from "./site-settings.server";
import { countProductView, flushViews, unwrittenViews, viewsWrittenAtOnce, writeViewsNow } from "./view-counts.server";
import type { SitemapProducts, SitemapSource } from "./sitemap.server";
import { findIssuedUpload, removeUpload } from "./uploads.server";
import type { Actor } from "./permissions.server";
import { pagesChanged, staffWrite } from "./writes.server";
import { correctSearch, normalizeSearch, readSearch, termsOf, type SearchPart } from "./search.server";
import { isForeignKeyViolation, isUniqueViolation } from "~/lib/db-errors.server";

export type { Category, CategoryWithCount, Product, ProductWithSkus, Page };
export { SEARCH_COUNT_CAP };

// ---------------------------------------------------------------- visibility

const PRODUCT_PERMISSIONS = ["product.create", "product.edit", "product.delete"];

/** Whether the caller manages the catalogue (then lists are never filtered). */
export function managesCatalogue(access: Access | null | undefined): boolean {
  return Boolean(access && (access.userType === "super_admin" || access.allPermissions.some((p) => PRODUCT_PERMISSIONS.includes(p))));
}

/** The filter of storefront lists for this caller. */
export async function storefrontFilter(access?: Access | null): Promise<ListFilter> {
  if (managesCatalogue(access)) return {};
  const settings = await loadSettings();
  return { hideExternal: !isTrue(settings.show_external_products), listedOnly: true };
}

// ---------------------------------------------------------------- paths and JSON

/** /{platform}/{item id} when both exist, else /product/{id} (docs/product/storefront.md 2). */
export function productPath(product: Pick<Product, "id" | "platform" | "platformItemId">): string {
  return product.platform && product.platformItemId
    ? `/${product.platform}/${encodeURIComponent(product.platformItemId)}`
    : `/product/${product.id}`;
}

export type SkuJson = { id: number; sku_name: string; sku_price: number; sku_stock: number; sku_thumbnail_url: string | null };

/** A product as the API answers it: the fields of both specs, with the aliases each reads. */
export function productJson(product: Product | ProductWithSkus) {
  const skus: SkuJson[] | undefined =
    "skus" in product
      ? product.skus.map((sku) => ({
          id: sku.id,
          sku_name: sku.name,
          sku_price: sku.priceCny,
          sku_stock: sku.stock,
          sku_thumbnail_url: sku.thumbnailUrl,
        }))
      : undefined;
  return {
    id: product.id,
    name: product.name,
    title: product.name,
    description: product.description,
    descriptionItems: product.descriptionItems,
    price_cny: product.priceCny,
    price: product.priceCny,
    category_id: product.categoryId,
    ...("categoryName" in product ? { category_name: product.categoryName } : {}),
    images: product.images,
    main_images: product.images,
    allImages: product.images,
    thumbnail: product.images[0] ?? null,
    platform: product.platform,
    source: product.platform ?? "weidian",
    platform_item_id: product.platformItemId,
    itemId: product.platformItemId,
    original_url: product.originalUrl,
    originalUrl: product.originalUrl,
    shop_name: product.shopName,
    shopName: product.shopName,
    is_external: product.isExternal,
    isExternalProduct: product.isExternal,
    show_in_listing: product.showInListing,
    showInListing: product.showInListing,
    view_count: product.viewCount,
    qc_image_count: product.qcCount,
    date_added: product.createdAt,
    created_at: product.createdAt,
    updated_at: product.updatedAt,
    url: productPath(product),
    ...(skus ? { skus } : {}),
  };
}

/**
 * One product's answer (its reads, the admin create and update): productJson plus
 * `qc_images`, the addresses of its approved QC photos (docs/product/admin.md 3). Lists carry only
 * qc_image_count, and pages read the photos themselves.
 */
export async function productDetailJson(product: ProductWithSkus) {
  return { ...productJson(product), qc_images: await approvedQcUrls(getDb(), product.id) };
}

export type ProductJson = ReturnType<typeof productJson>;

// ---------------------------------------------------------------- reading

const notFound = () => new ApiError(404, M.productNotFound, "NOT_FOUND");

/** Views are counted for people, not crawlers, and not when the caller asks not to. */
export function shouldCountView(request: Request, incrementView: string | null): boolean {
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
  if (result.totalItems === 0) {
    // the parts that find something on their own (corrected), if together they find
    // products: a search the suggestion's link opens, without the shopper's filters
    const plain = async (some: SearchPart[]) =>
      (await searchProducts(getDb(), termsOf(some), { ...storefront, page: 1, limit: 1, sort: "newest" })).totalItems > 0;
    const searched = corrected?.parts ?? parts;
    const finding: SearchPart[] = [];
    for (const part of searched) if (await plain([part])) finding.push(part);
    const suggestion = finding.map((part) => part.typed).join(" ");
    if (finding.length && suggestion !== normalizeSearch(options.q) && (await plain(finding))) didYouMean = suggestion;
  }
  return { ...result, correctedTo, didYouMean };
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

// ---------------------------------------------------------------- categories

const categoryCache = new Map<string, { db: DB; list: Promise<CategoryWithCount[]> }>();

/**
 * Every category with its product count, in display order, counting what the caller's
 * storefront lists show (everything for catalogue managers). Kept in memory until the
 * content changes.
 */
export async function categoriesForStorefront(access?: Access | null): Promise<CategoryWithCount[]> {
  const filter = await storefrontFilter(access);
  const db = getDb();
  const version = `${dataVersion()}:${contentVersion()}:`;
  const key = `${version}${filter.hideExternal ? 1 : 0}:${filter.listedOnly ? 1 : 0}`;
  const cached = categoryCache.get(key);
  if (cached?.db === db) return cached.list;
  // only the current version is worth keeping (for visitors and for staff: every page's header shows it)
  for (const old of categoryCache.keys()) if (!old.startsWith(version)) categoryCache.delete(old);
  const list = listCategories(db, filter);
  categoryCache.set(key, { db, list });
  list.catch(() => categoryCache.delete(key));
  return list;
}

export function categoryJson(category: Category | CategoryWithCount) {
  return {
    id: category.id,
    name: category.name,
    description: category.description,
    parent_id: category.parentId,
    sort_order: category.sortOrder,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
    ...("productCount" in category ? { product_count: category.productCount } : {}),
  };
}

export async function getCategory(id: number, db: DB = getDb()): Promise<Category> {
  const category = await findCategory(db, id);
  if (!category) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
  return category;
}

const categoryError = (field: string, message: string, status = 400) =>
  new ApiError(status, message, status === 404 ? "NOT_FOUND" : status === 409 ? "CONFLICT" : "VALIDATION_ERROR", [{ field, message }]);

/** Only top-level categories other than itself can be a parent (one level of nesting). */
async function assertParentAllowed(db: DB, parentId: number | null | undefined, selfId?: number): Promise<void> {
  if (!parentId) return;
  if (parentId === selfId) throw categoryError("parent_id", M.categoryParentInvalid);
  const parent = await findCategory(db, parentId);
  if (!parent) throw categoryError("parent_id", M.categoryNotFound);
  if (parent.parentId !== null) throw categoryError("parent_id", M.categoryParentInvalid);
  if (selfId !== undefined && (await countChildren(db, selfId)) > 0) {
    // a category with subcategories stays at the top: one level only
    throw categoryError("parent_id", M.categoryParentInvalid);
  }
}

/** Two categories side by side with one name could not be told apart in a menu or a filter. */
async function assertNameFree(db: DB, name: string, parentId: number | null, selfId?: number): Promise<void> {
  const taken = await findSiblingNamed(db, name, parentId, selfId);
  if (taken) throw categoryError("name", M.categoryNameTaken(taken.name), 409);
}

/**
 * A change to the categories' names or nesting checks the others first, then writes:
 * such changes take turns (one transaction at a time, across instances on PostgreSQL), so
 * a double submit cannot make two categories of one name, nor two moves a three-level tree.
 */
function categoryWrite<T>(work: (db: DB) => Promise<T>): Promise<T> {
  return lockedTransaction(getDb(), "categories", work);
}

export const createCategory = staffWrite(
  { requires: { permission: "product.create" }, stales: ["shop"] },
  async (body: CategoryBody, _actor: Actor): Promise<Category> => {
    const category = await categoryWrite(async (db) => {
      await assertParentAllowed(db, body.parent_id);
      await assertNameFree(db, body.name, body.parent_id ?? null);
      return insertCategory(db, {
        name: body.name,
        description: body.description ?? null,
        parentId: body.parent_id ?? null,
        sortOrder: body.sort_order ?? 0,
      });
    });
    return category;
  },
);

/** Applies the fields that differ; `changed` is false ('No changes detected.') when none do. */
export const updateCategoryByAdmin = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"], changedWhen: (answer) => answer.changed },
  async (id: number, body: Partial<CategoryBody>, _actor: Actor): Promise<{ category: Category; changed: boolean }> => {
    const answer = await categoryWrite(async (db) => {
      const current = await getCategory(id, db);
      const changes: Parameters<typeof updateCategory>[2] = {};
      if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
      if (body.description !== undefined && (body.description ?? null) !== current.description)
        changes.description = body.description ?? null;
      if (body.parent_id !== undefined && (body.parent_id ?? null) !== current.parentId) {
        await assertParentAllowed(db, body.parent_id, id);
        changes.parentId = body.parent_id ?? null;
      }
      if (body.sort_order !== undefined && body.sort_order !== current.sortOrder) changes.sortOrder = body.sort_order;
      if (Object.keys(changes).length === 0) return { category: current, changed: false };
      if (changes.name !== undefined || changes.parentId !== undefined) {
        await assertNameFree(db, changes.name ?? current.name, changes.parentId !== undefined ? changes.parentId : current.parentId, id);
      }
      return { category: (await updateCategory(db, id, changes))!, changed: true };
    });
    return answer;
  },
);

/** Deletes a category without subcategories; its products become uncategorised. */
export const deleteCategoryByAdmin = staffWrite(
  { requires: { permission: "product.delete" }, stales: ["shop"] },
  async (id: number, _actor: Actor): Promise<void> => {
    await categoryWrite(async (db) => {
      await getCategory(id, db);
      if ((await countChildren(db, id)) > 0) throw new ApiError(409, M.categoryHasChildren, "CONFLICT");
      await deleteCategory(db, id);
    });
  },
);

/** Sets many sort orders at once (move up/down, inline values): all or nothing. */
export const batchSortCategories = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"] },
  async (entries: Array<{ id: number; sort_order: number }>, _actor: Actor): Promise<number> => {
    const updated = await categoryWrite((db) => sortCategoriesIn(db, entries));
    return updated;
  },
);

async function sortCategoriesIn(db: DB, entries: Array<{ id: number; sort_order: number }>): Promise<number> {
  const known = new Set((await listCategories(db)).map((c) => c.id));
  const unknown = entries.find((entry) => !known.has(entry.id));
  if (unknown) throw new ApiError(404, `${M.categoryNotFound}: ${unknown.id}`, "NOT_FOUND");
  return setSortOrders(
    db,
    entries.map((e) => ({ id: e.id, sortOrder: e.sort_order })),
  );
}

/** The back office's category list: a name search, a page, each with its parent's name and product count. */
export async function adminCategoryPage(options: {
  q: string;
  page: number;
  limit: number;
}): Promise<Page<CategoryWithCount & { parentName: string | null }>> {
  const all = await listCategories(getDb());
  const names = new Map(all.map((category) => [category.id, category.name]));
  const matching = all.filter((category) => matchesCategorySearch(category, options.q));
  const totalPages = Math.max(1, Math.ceil(matching.length / options.limit));
  const page = Math.min(Math.max(1, options.page), totalPages);
  const items = matching.slice((page - 1) * options.limit, page * options.limit).map((category) => ({
    ...category,
    parentName: category.parentId ? (names.get(category.parentId) ?? null) : null,
  }));
  return { items, totalItems: matching.length, page, limit: options.limit, totalPages };
}

/** How many subcategories a category has (one with any stays at the top level and cannot be deleted). */
export async function subcategoryCount(id: number): Promise<number> {
  return countChildren(getDb(), id);
}

/** The categories a category may be placed under: top-level ones other than itself (none when it has subcategories). */
export async function parentChoices(forCategoryId?: number): Promise<Category[]> {
  const all = await listCategories(getDb());
  if (forCategoryId !== undefined && all.some((category) => category.parentId === forCategoryId)) return [];
  return all.filter((category) => category.parentId === null && category.id !== forCategoryId);
}

const matchesCategorySearch = (category: Category, q: string) => {
  const needle = q.trim().toLowerCase();
  return !needle || category.name.toLowerCase().includes(needle) || (category.description ?? "").toLowerCase().includes(needle);
};

/**
 * Moves a category one place up or down past its neighbour in the list as the admin sees
 * it (the display order, narrowed by the list's search `q`). Swaps the two sort values,
 * or, when they are equal, numbers the whole list afresh (0, 10, 20, ...) with the
 * category placed next to its neighbour. False when it is already first or last.
 */
export const moveCategory = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"], changedWhen: (moved) => moved },
  async (id: number, direction: "up" | "down", q: string, _actor: Actor): Promise<boolean> => {
    // read and written in one turn (categoryWrite): two moves made at the same moment both
    // count, neither numbers the list from what the other changed
    const moved = await categoryWrite(async (db) => {
      const all = await listCategories(db);
      const self = all.find((category) => category.id === id);
      if (!self) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
      const shown = all.filter((category) => category.id === id || matchesCategorySearch(category, q));
      const index = shown.indexOf(self);
      const neighbour = shown[index + (direction === "up" ? -1 : 1)];
      if (!neighbour) return false;
      if (self.sortOrder !== neighbour.sortOrder) {
        await sortCategoriesIn(db, [
          { id: self.id, sort_order: neighbour.sortOrder },
          { id: neighbour.id, sort_order: self.sortOrder },
        ]);
        return true;
      }
      const order = all.filter((category) => category.id !== id);
      const at = order.indexOf(neighbour) + (direction === "up" ? 0 : 1);
      order.splice(at, 0, self);
      await sortCategoriesIn(
        db,
        order.map((category, position) => ({ id: category.id, sort_order: position * 10 })),
      );
      return true;
    });
    return moved;
  },
);

// ---------------------------------------------------------------- sitemap

/** The catalogue's pages for the sitemap: its categories (the products come in blocks, below). */
export const catalogueSitemapSources: SitemapSource[] = [
  {
    name: "categories",
    entries: async () =>
      (await listCategories(getDb())).map((category) => ({
        path: `/category/${category.id}`,
        lastmod: category.updatedAt.slice(0, 10),
        changefreq: "daily" as const,
        priority: 0.7,
      })),
  },
];

/** Every product a visitor may find (the storefront's rules), in blocks of ids. */
export const catalogueSitemapProducts: SitemapProducts = {
  blocks: async (size) => productIdBlocks(getDb(), await storefrontFilter(null), size),
  entries: async (block, size) =>
    (await productStampsInBlock(getDb(), await storefrontFilter(null), block, size)).map((product) => ({
      path: productPath(product),
      lastmod: product.updatedAt.slice(0, 10),
      changefreq: "weekly" as const,
      priority: 0.8,
    })),
};

// ---------------------------------------------------------------- collections

async function assertProduct(productId: number): Promise<void> {
  if (!(await findProductById(getDb(), productId))) throw notFound();
}

/** Whether the user collected the product (a product that does not exist is a 404). */
export async function collectionState(user: User, productId: number): Promise<boolean> {
  const [exists, collected] = await Promise.all([findProductById(getDb(), productId), isCollected(getDb(), user.id, productId)]);
  if (!exists) throw notFound();
  return collected;
}

/** Adds a product to the user's collection (adding twice changes nothing). */
export async function collect(user: User, productId: number): Promise<void> {
  await assertProduct(productId);
  try {
    await addToCollection(getDb(), user.id, productId);
  } catch (error) {
    // deleted by staff since it was found: as if it had not been there
    if (isForeignKeyViolation(error)) throw notFound();
    throw error;
  }
}

/** Removes a product from the user's collection (removing twice changes nothing; an unknown product is a 404). */
export async function uncollect(user: User, productId: number): Promise<void> {
  await assertProduct(productId);
  await removeFromCollection(getDb(), user.id, productId);
}

export async function userCollection(
  user: User,
  options: { sortBy: "date" | "price" | "name"; sortOrder: "asc" | "desc"; page: number; limit: number },
): Promise<Page<CollectedProduct>> {
  await flushViews();
  return listCollection(getDb(), user.id, { sort: options.sortBy, order: options.sortOrder, page: options.page, limit: options.limit });
}

/** Field errors of a failed parse, for the envelope (used by the API routes). */
export type { FieldError };
