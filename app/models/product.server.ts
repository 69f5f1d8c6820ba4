/**
 * Products, their SKUs and the product search. Prices are stored in fen (CNY × 100) and
 * read as CNY; images are a JSON array whose first entry is the thumbnail.
 */
import { sql, type RawBuilder, type Selectable, type Updateable } from "kysely";
import type { DB } from "~/lib/db.server";
import type { Platform, ProductsTable } from "../../db/schema";
import { normalizeForSearch, termCharacters } from "../../db/search-grams";
import { searchProductsPostgres } from "./product-search-postgres.server";
import { caseless, likeCaseless, onPostgres, serializeOn } from "./sql-dialect.server";
import { listingPlatform, sameListingPlatforms } from "~/schemas/catalogue-rules";
import { recordPriceChange } from "./price-history.server";

export type Sku = { id: number; name: string; priceCny: number; stock: number; thumbnailUrl: string | null };

export type Product = {
  id: number;
  name: string;
  description: string | null;
  descriptionItems: string[];
  priceCny: number | null;
  categoryId: number | null;
  images: string[];
  platform: Platform | null;
  platformItemId: string | null;
  originalUrl: string | null;
  shopName: string | null;
  isExternal: boolean;
  showInListing: boolean;
  viewCount: number;
  /** approved QC photos */
  qcCount: number;
  createdAt: string;
  updatedAt: string;
};

export type ProductWithSkus = Product & { skus: Sku[]; categoryName: string | null };

export type Row = Selectable<ProductsTable>;

const fenToCny = (fen: number | null) => (fen === null ? null : fen / 100);
const cnyToFen = (cny: number | null | undefined) => (cny === null || cny === undefined ? null : Math.round(cny * 100));

function parseList(json: string): string[] {
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function toProduct(row: Row): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    descriptionItems: parseList(row.description_items),
    priceCny: fenToCny(row.price_fen),
    categoryId: row.category_id,
    images: parseList(row.images),
    platform: row.platform,
    platformItemId: row.platform_item_id,
    originalUrl: row.original_url,
    shopName: row.shop_name,
    isExternal: row.is_external === 1,
    showInListing: row.show_in_listing === 1,
    viewCount: row.view_count,
    qcCount: row.qc_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type ProductInput = {
  name: string;
  description?: string | null;
  descriptionItems?: string[];
  priceCny?: number | null;
  categoryId?: number | null;
  images?: string[];
  platform?: Platform | null;
  platformItemId?: string | null;
  originalUrl?: string | null;
  shopName?: string | null;
  isExternal?: boolean;
  showInListing?: boolean;
};

export type SkuInput = { id?: number; name: string; priceCny: number; stock: number; thumbnailUrl?: string | null };

function toValues(input: Partial<ProductInput>): Updateable<ProductsTable> {
  const values: Updateable<ProductsTable> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.description !== undefined) values.description = input.description || null;
  if (input.descriptionItems !== undefined) values.description_items = JSON.stringify(input.descriptionItems);
  if (input.priceCny !== undefined) values.price_fen = cnyToFen(input.priceCny);
  if (input.categoryId !== undefined) values.category_id = input.categoryId;
  if (input.images !== undefined) values.images = JSON.stringify(input.images);
  if (input.platform !== undefined) values.platform = input.platform;
  if (input.platformItemId !== undefined) values.platform_item_id = input.platformItemId;
  if (input.originalUrl !== undefined) values.original_url = input.originalUrl || null;
  if (input.shopName !== undefined) values.shop_name = input.shopName || null;
  if (input.isExternal !== undefined) values.is_external = input.isExternal ? 1 : 0;
  if (input.showInListing !== undefined) values.show_in_listing = input.showInListing ? 1 : 0;
  return values;
}

export async function findProductById(db: DB, id: number): Promise<Product | undefined> {
  const row = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toProduct(row);
}

/**
 * The product of a marketplace listing: Taobao and Tmall share item numbers, so either
 * finds the other's product (sameListingPlatforms). Where both were made before they
 * counted as one, the platform asked for comes first.
 */
export async function findProductByPlatformItem(db: DB, platform: Platform, itemId: string): Promise<Product | undefined> {
  const row = await db
    .selectFrom("products")
    .selectAll()
    .where("platform", "in", sameListingPlatforms(platform))
    .where("platform_item_id", "=", itemId)
    .orderBy(sql`CASE WHEN platform = ${platform} THEN 0 ELSE 1 END`)
    .orderBy("id")
    .executeTakeFirst();
  return row && toProduct(row);
}

/** Products with this item id on any platform (an id alone may be ambiguous). */
export async function findProductsByItemId(db: DB, itemId: string): Promise<Product[]> {
  const rows = await db.selectFrom("products").selectAll().where("platform_item_id", "=", itemId).orderBy("id").limit(10).execute();
  return rows.map(toProduct);
}

export async function skusOf(db: DB, productId: number): Promise<Sku[]> {
  const rows = await db
    .selectFrom("product_skus")
    .select(["id", "sku_name", "price_fen", "stock", "thumbnail_url"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.sku_name,
    priceCny: row.price_fen / 100,
    stock: row.stock,
    thumbnailUrl: row.thumbnail_url,
  }));
}

/** A product with its SKUs and category name, in one read transaction. */
export async function findProductDetail(db: DB, id: number): Promise<ProductWithSkus | undefined> {
  const row = await db
    .selectFrom("products")
    .leftJoin("categories", "categories.id", "products.category_id")
    .selectAll("products")
    .select("categories.name as category_name")
    .where("products.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { category_name, ...product } = row;
  return { ...toProduct(product as Row), categoryName: category_name, skus: await skusOf(db, id) };
}

async function writeSkus(db: DB, productId: number, skus: SkuInput[]): Promise<void> {
  await db.deleteFrom("product_skus").where("product_id", "=", productId).execute();
  if (skus.length === 0) return;
  await db
    .insertInto("product_skus")
    .values(
      skus.map((sku, position) => ({
        product_id: productId,
        sku_name: sku.name,
        price_fen: Math.round(sku.priceCny * 100),
        stock: sku.stock,
        thumbnail_url: sku.thumbnailUrl ?? null,
        position,
      })),
    )
    .execute();
}

/** A product's SKU names, in their order. */
export async function skuNamesOf(db: DB, productId: number): Promise<string[]> {
  const rows = await db.selectFrom("product_skus").select("sku_name").where("product_id", "=", productId).orderBy("position").execute();
  return rows.map((row) => row.sku_name);
}

/** Inserts a product and its SKUs (call inside a transaction). */
export async function insertProduct(db: DB, input: ProductInput, skus: SkuInput[], createdBy: number | null): Promise<Product> {
  const row = await db
    .insertInto("products")
    .values({ ...toValues(input), name: input.name, created_by: createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeSkus(db, row.id, skus);
  return toProduct(row);
}

/**
 * Makes writes to one listing (a platform's item id; Taobao and Tmall share theirs) take
 * turns, to the end of the transaction: the unique index sees one platform only.
 */
export async function takeListingTurn(db: DB, platform: Platform, itemId: string): Promise<void> {
  await serializeOn(db, `product-listing:${listingPlatform(platform)}:${itemId}`);
}

/**
 * Inserts a product unless the listing has one (the same platform and item id, or the
 * Taobao/Tmall twin: findProductByPlatformItem); answers the product and whether this call
 * created it. Call inside a transaction. Safe under concurrent calls: they take turns on
 * the listing (SQLite's one writer, PostgreSQL's lock on the key), and the unique index
 * still decides within one platform, the loser reading the winner's row.
 */
export async function insertProductOnce(
  db: DB,
  input: ProductInput & { platform: Platform; platformItemId: string },
  skus: SkuInput[],
  createdBy: number | null,
): Promise<{ product: Product; created: boolean }> {
  await takeListingTurn(db, input.platform, input.platformItemId);
  const known = await findProductByPlatformItem(db, input.platform, input.platformItemId);
  if (known) return { product: known, created: false };
  const row = await db
    .insertInto("products")
    .values({ ...toValues(input), name: input.name, created_by: createdBy })
    .onConflict((oc) =>
      oc.columns(["platform", "platform_item_id"]).where("platform", "is not", null).where("platform_item_id", "is not", null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (row) {
    await writeSkus(db, row.id, skus);
    return { product: toProduct(row), created: true };
  }
  const existing = await findProductByPlatformItem(db, input.platform, input.platformItemId);
  if (!existing) throw new Error("product conflict without a row");
  return { product: existing, created: false };
}

/** Updates the given fields; `skus` (when given) replaces the product's SKUs. */
/**
 * Updates the given fields; `skus` (when given) replaces the product's SKUs. A change of
 * price is recorded in the price history, whichever path wrote it (the editor, an import,
 * the listing watch).
 */
export async function updateProduct(db: DB, id: number, input: Partial<ProductInput>, skus?: SkuInput[]): Promise<Product | undefined> {
  const before =
    input.priceCny !== undefined
      ? await db.selectFrom("products").select(["price_fen", "created_at"]).where("id", "=", id).executeTakeFirst()
      : undefined;
  const at = new Date().toISOString();
  const row = await db
    .updateTable("products")
    .set({ ...toValues(input), updated_at: at })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (row && before && row.price_fen !== null && row.price_fen !== before.price_fen) {
    await recordPriceChange(db, id, { previousFen: before.price_fen, previousAt: before.created_at, newFen: row.price_fen, at });
  }
  if (row && skus) await writeSkus(db, id, skus);
  return row && toProduct(row);
}

export async function deleteProduct(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("products").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Adds views to products (product id → views), in one transaction, in id order: instances
 * writing their counts at the same moment take the rows' locks in the same order, so
 * neither waits on the other crosswise (a deadlock).
 */
export async function addViewCounts(db: DB, views: ReadonlyMap<number, number>): Promise<void> {
  if (!views.size) return;
  const ordered = [...views].sort(([a], [b]) => a - b);
  const add = (on: DB, id: number, count: number) =>
    on
      .updateTable("products")
      .set((eb) => ({ view_count: eb("view_count", "+", count) }))
      .where("id", "=", id)
      .execute();
  // one product's views (on PostgreSQL, a view written before its answer): one statement
  if (ordered.length === 1) {
    await add(db, ...ordered[0]);
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const [id, count] of ordered) await add(trx, id, count);
  });
}

/** The dashboard's catalogue counts (QC photos included), in one query. */
export async function countCatalogue(
  db: DB,
): Promise<{ local: number; external: number; categories: number; qcApproved: number; qcPending: number }> {
  const { rows } = await sql<{ local: number; external: number; categories: number; qc_approved: number; qc_pending: number }>`SELECT
      (SELECT count(*) FROM products WHERE is_external = 0) AS local,
      (SELECT count(*) FROM products WHERE is_external = 1) AS external,
      (SELECT count(*) FROM categories) AS categories,
      (SELECT count(*) FROM qc_images WHERE status = 'approved') AS qc_approved,
      (SELECT count(*) FROM qc_images WHERE status = 'pending') AS qc_pending`.execute(db);
  const row = rows[0];
  return {
    local: Number(row?.local ?? 0),
    external: Number(row?.external ?? 0),
    categories: Number(row?.categories ?? 0),
    qcApproved: Number(row?.qc_approved ?? 0),
    qcPending: Number(row?.qc_pending ?? 0),
  };
}

// ---------------------------------------------------------------- lists and search

export type ListFilter = {
  /** a category and its subcategories */
  categoryIds?: number[];
  isExternal?: boolean;
  /** storefront lists: no external products (show_external_products off) */
  hideExternal?: boolean;
  /** storefront lists: only products shown in listings */
  listedOnly?: boolean;
  /** QC lists: products with approved QC photos, or without */
  qc?: "with" | "without";
  /** the listing watch marked them unavailable */
  unavailableOnly?: boolean;
  /** only these marketplaces */
  platforms?: Platform[];
  /** price bounds in fen (CNY × 100), inclusive; a product without a price is left out by either */
  minPriceFen?: number;
  maxPriceFen?: number;
};

export type ProductSort = "relevance" | "newest" | "price_asc" | "price_desc" | "popular" | "qc" | "name";

export type Page<T> = { items: T[]; totalItems: number; page: number; limit: number; totalPages: number };

function orderFor(db: DB, sort: ProductSort) {
  switch (sort) {
    case "price_asc":
      return sql`p.price_fen IS NULL, p.price_fen ASC, p.id DESC`;
    case "price_desc":
      return sql`p.price_fen IS NULL, p.price_fen DESC, p.id DESC`;
    case "popular":
      return sql`p.view_count DESC, p.id DESC`;
    case "qc":
      return sql`p.qc_count DESC, p.id DESC`;
    case "name":
      return sql`${caseless(db, sql`p.name`)} ASC, p.id DESC`;
    default:
      return sql`p.id DESC`;
  }
}

/**
 * The SQL condition of a filter, on the products row `p`, or (`on: "s"`) on PostgreSQL's
 * search row `s`, which holds the same columns (product-search-postgres.server.ts).
 */
export function whereSql(filter: ListFilter, on: "p" | "s" = "p") {
  const column = (name: string) => sql.ref(`${on}.${name}`);
  const id = column(on === "p" ? "id" : "product_id");
  const parts = [sql`1 = 1`];
  if (filter.categoryIds?.length) parts.push(sql`${column("category_id")} IN (${sql.join(filter.categoryIds)})`);
  if (filter.isExternal !== undefined) parts.push(sql`${column("is_external")} = ${filter.isExternal ? 1 : 0}`);
  if (filter.hideExternal) parts.push(sql`${column("is_external")} = 0`);
  if (filter.listedOnly) parts.push(sql`${column("show_in_listing")} = 1`);
  if (filter.qc === "with") parts.push(sql`${column("qc_count")} > 0`);
  if (filter.qc === "without") parts.push(sql`${column("qc_count")} = 0`);
  if (filter.unavailableOnly) parts.push(sql`${id} IN (SELECT product_id FROM listing_watch WHERE status = 'unavailable')`);
  if (filter.platforms?.length) parts.push(sql`${column("platform")} IN (${sql.join(filter.platforms)})`);
  if (filter.minPriceFen !== undefined) parts.push(sql`${column("price_fen")} >= ${filter.minPriceFen}`);
  if (filter.maxPriceFen !== undefined) parts.push(sql`${column("price_fen")} <= ${filter.maxPriceFen}`);
  return sql.join(parts, sql` AND `);
}

export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));
export const clampPage = (page: number, limit: number, total: number) => Math.min(Math.max(1, page), pageCount(total, limit));

/**
 * A page of products with filters, newest first unless sorted otherwise. `nameContains`
 * is the admin lists' plain filter: a part of the name, an exact item id or product id.
 * A page past the end answers the last page.
 */
export async function listProducts(
  db: DB,
  options: ListFilter & {
    page: number;
    limit: number;
    sort?: Exclude<ProductSort, "relevance">;
    nameContains?: string;
    /** count no further than this (then totalCapped), as searches do: a count of a whole large catalogue costs a scan */
    countCap?: number;
  },
): Promise<Page<Product> & { totalCapped: boolean }> {
  const conditions = [whereSql(options)];
  const q = options.nameContains?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const id = /^\d{1,15}$/.test(q) ? Number(q) : -1;
    conditions.push(sql`(p.name ${likeCaseless(db)} ${pattern} ESCAPE '\\' OR p.platform_item_id = ${q} OR p.id = ${id})`);
  }
  const where = sql.join(conditions, sql` AND `);
  const counted = await (
    options.countCap
      ? sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM products p WHERE ${where} LIMIT ${options.countCap + 1}) AS counted`
      : sql<{ n: number }>`SELECT count(*) AS n FROM products p WHERE ${where}`
  ).execute(db);
  const found = Number(counted.rows[0]?.n ?? 0);
  const totalCapped = options.countCap !== undefined && found > options.countCap;
  const totalItems = totalCapped ? options.countCap! : found;
  const page = clampPage(options.page, options.limit, totalItems);
  const { rows } = await sql<Row>`SELECT p.* FROM products p WHERE ${where}
    ORDER BY ${orderFor(db, options.sort ?? "newest")} LIMIT ${options.limit} OFFSET ${(page - 1) * options.limit}`.execute(db);
  return {
    items: rows.map(toProduct),
    totalItems,
    page,
    limit: options.limit,
    totalPages: pageCount(totalItems, options.limit),
    totalCapped,
  };
}

export type ProductStamp = Pick<Product, "id" | "platform" | "platformItemId" | "updatedAt">;

/**
 * The sitemap's parts: which blocks of `size` product ids (block n holds ids
 * n·size+1 … (n+1)·size) hold products passing the filter, and how many each.
 */
export async function productIdBlocks(db: DB, filter: ListFilter, size: number): Promise<Array<{ block: number; count: number }>> {
  // the size is bound as a float by the driver: integer division needs it cast
  const { rows } = await sql<{
    block: number;
    n: number;
  }>`SELECT (p.id - 1) / CAST(${size} AS INTEGER) AS block, count(*) AS n FROM products p
    WHERE ${whereSql(filter)} GROUP BY block ORDER BY block`.execute(db);
  return rows.map((row) => ({ block: Number(row.block), count: Number(row.n) }));
}

/** The products of one id block (see productIdBlocks()), by id: what a sitemap lists of them. */
export async function productStampsInBlock(db: DB, filter: ListFilter, block: number, size: number): Promise<ProductStamp[]> {
  const { rows } = await sql<
    Pick<Row, "id" | "platform" | "platform_item_id" | "updated_at">
  >`SELECT p.id, p.platform, p.platform_item_id, p.updated_at
    FROM products p WHERE p.id > ${block * size} AND p.id <= ${(block + 1) * size} AND ${whereSql(filter)} ORDER BY p.id`.execute(db);
  return rows.map((row) => ({ id: row.id, platform: row.platform, platformItemId: row.platform_item_id, updatedAt: row.updated_at }));
}

/** Most viewed, then newest (home page lists). */
export async function topProducts(db: DB, options: ListFilter & { by: "views" | "newest"; limit: number }): Promise<Product[]> {
  const { rows } = await sql<Row>`SELECT p.* FROM products p WHERE ${whereSql(options)}
    ORDER BY ${options.by === "views" ? sql`p.view_count DESC, p.id DESC` : sql`p.id DESC`} LIMIT ${options.limit}`.execute(db);
  return rows.map(toProduct);
}

/** The highest product id (0 without products). */
export async function lastProductId(db: DB): Promise<number> {
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/**
 * How many products the filter shows that were listed at or after `since`, at most `cap`.
 * Ids grow with time, so the first id listed since then is found by halving the id range
 * (a primary-key read each step), and the count reads the covering index from there.
 */
export async function countListedSince(db: DB, since: string, options: ListFilter, cap: number): Promise<number> {
  const max = await lastProductId(db);
  let low = 1;
  let high = max + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const row = (await sql<{ created_at: string }>`SELECT created_at FROM products WHERE id >= ${middle} ORDER BY id LIMIT 1`.execute(db))
      .rows[0];
    if (!row || row.created_at >= since) high = middle;
    else low = middle + 1;
  }
  if (low > max) return 0;
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (SELECT 1 FROM products p WHERE p.id >= ${low} AND ${whereSql(options)} LIMIT ${cap}) AS listed`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** One phrase, quoted for FTS (never FTS syntax). */
const ftsString = (phrase: string) => `"${phrase.replace(/"/g, '""')}"`;

/**
 * One part of a search that a product must match: any one of its alternatives (a typed
 * term, and what an alias or a typo correction adds). Alternatives of 3+ characters are
 * looked up in the trigram index (a substring of name, description, shop name or
 * category names), 1–2 letter-or-digit ones in the grams index (name, shop, categories).
 */
export type SearchUnit = { long: string[]; short: string[] };
export type SearchTerms = SearchUnit[];

/** A unit of the given alternatives (normalised; punctuation-only ones dropped, repeats once). */
export function searchUnit(alternatives: string[]): SearchUnit {
  const unit: SearchUnit = { long: [], short: [] };
  for (const raw of alternatives) {
    const phrase = normalizeForSearch(raw).replace(/\s+/g, " ").trim();
    if (!phrase) continue;
    if (Array.from(phrase).length >= 3) {
      if (!unit.long.includes(phrase)) unit.long.push(phrase);
    } else {
      const chars = termCharacters(phrase);
      if (chars && !unit.short.includes(chars)) unit.short.push(chars);
    }
  }
  return unit;
}

export const isEmptyUnit = (unit: SearchUnit) => !unit.long.length && !unit.short.length;

/**
 * Splits a search into terms, one unit each: 3+ characters go to the trigram index, 1–2
 * letter-or-digit terms to the grams index. Punctuation-only terms are dropped; at most 8.
 */
export function splitTerms(q: string): SearchTerms {
  return normalizeForSearch(q)
    .split(/\s+/)
    .map((term) => searchUnit([term]))
    .filter((unit) => !isEmptyUnit(unit))
    .slice(0, 8);
}

/**
 * How far search results are counted: beyond it the count says "more than 500"
 * (totalCapped) and pages go up to it (63 pages of 8). Counting is most of a search's
 * SQL: each match is joined to its product for the visibility filter (0.34 ms for 1,001
 * matches at 100k products, 0.17 ms for 501; docs/performance.md).
 */
export const SEARCH_COUNT_CAP = 500;

/** bm25 weights of products_fts's columns: name, description, shop name, category names. */
const FTS_RANK = sql`bm25(products_fts, 4.0, 1.0, 2.0, 1.0)`;

/** An FTS expression requiring every unit, each by any of its alternatives of one kind. */
const ftsExpression = (units: SearchUnit[], kind: "long" | "short") =>
  units.map((unit) => (unit[kind].length === 1 ? ftsString(unit[kind][0]) : `(${unit[kind].map(ftsString).join(" OR ")})`)).join(" AND ");

/** A product's text for short terms checked on another index's matches: name, shop and category names. */
const shortTermText = sql`lower(p.name || ' ' || coalesce(p.shop_name, '') || ' ' || coalesce((SELECT c.name || ' ' || coalesce(pc.name, '')
  FROM categories c LEFT JOIN categories pc ON pc.id = c.parent_id WHERE c.id = p.category_id), ''))`;

/** The condition on a product row `p` that it matches a unit (for units not driving the search). */
function unitCondition(unit: SearchUnit) {
  const alternatives = [
    ...unit.short.map((term) => sql`instr(${shortTermText}, ${term}) > 0`),
    ...(unit.long.length
      ? [sql`p.id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${ftsExpression([{ long: unit.long, short: [] }], "long")})`]
      : []),
  ];
  return sql`(${sql.join(alternatives, sql` OR `)})`;
}

/** One index's matches: `f` is the FTS table, `where` its MATCH, `rank` its bm25. */
type Branch = { from: RawBuilder<unknown>; where: RawBuilder<unknown>; rank: RawBuilder<unknown> };

type MatchSource = {
  /** the indexes whose matches, together, drive the search (one, or two for a part of both kinds) */
  branches: Branch[];
  /** conditions on the product row `p` for the units that do not drive the search */
  post: RawBuilder<unknown>;
};

const longBranch = (units: SearchUnit[]): Branch => ({
  from: sql`products_fts f`,
  where: sql`products_fts MATCH ${ftsExpression(units, "long")}`,
  rank: FTS_RANK,
});

const shortBranch = (units: SearchUnit[]): Branch => ({
  from: sql`products_grams f`,
  where: sql`products_grams MATCH ${ftsExpression(units, "short")}`,
  rank: sql`bm25(products_grams)`,
});

/**
 * What drives the search, and `post`, a condition on the product row `p` for the other
 * units (checked on the driver's matches, which is cheaper than intersecting indexes).
 * The driver is the units that are all long terms (one trigram MATCH), else those all
 * short (one grams MATCH), else the first unit of both kinds (both indexes' matches).
 */
function matchSource(units: SearchTerms): MatchSource {
  const long = units.filter((unit) => unit.long.length && !unit.short.length);
  const short = units.filter((unit) => unit.short.length && !unit.long.length);
  const mixed = units.filter((unit) => unit.long.length && unit.short.length);
  const postOf = (rest: SearchUnit[]) => (rest.length ? sql.join(rest.map(unitCondition), sql` AND `) : sql`1 = 1`);
  if (long.length) return { branches: [longBranch(long)], post: postOf([...short, ...mixed]) };
  if (short.length) return { branches: [shortBranch(short)], post: postOf(mixed) };
  const [first, ...rest] = mixed;
  return { branches: [longBranch([first]), shortBranch([first])], post: postOf(rest) };
}

/** A sorted search of at least this many matches (estimated), and dense enough to fill its page twice in the window, walks its sort's index first (see searchProducts()). */
const WALK_WHEN_MATCHES = 5_000;
/** How many products such a walk checks against the full-text index before it gathers the matches instead. */
const WALK_WINDOW = 200;

/** A match that passes the filters, with what sorts it (its rank and views only when sorted by them). */
export type Candidate = { id: number; price_fen: number | null; qc_count: number; rank?: number; view_count?: number };

/** The order of a sort, as orderFor() says it in SQL (products without a price last; ties: newest first). */
export function candidateOrder(sort: ProductSort): (a: Candidate, b: Candidate) => number {
  const newest = (a: Candidate, b: Candidate) => b.id - a.id;
  const byPrice = (direction: 1 | -1) => (a: Candidate, b: Candidate) =>
    a.price_fen === null || b.price_fen === null
      ? (a.price_fen === null ? 1 : 0) - (b.price_fen === null ? 1 : 0) || newest(a, b)
      : direction * (a.price_fen - b.price_fen) || newest(a, b);
  switch (sort) {
    case "relevance":
      return (a, b) => (a.rank ?? 0) - (b.rank ?? 0) || newest(a, b);
    case "price_asc":
      return byPrice(1);
    case "price_desc":
      return byPrice(-1);
    case "popular":
      return (a, b) => (b.view_count ?? 0) - (a.view_count ?? 0) || newest(a, b);
    case "qc":
      return (a, b) => b.qc_count - a.qc_count || newest(a, b);
    default:
      return newest;
  }
}

/**
 * Full-text search. The MATCH runs first, filters and sorting after, in the shape that
 * stays fast for the case at hand (measured in docs/performance.md):
 * - the matches that pass the filters (checked through the covering index
 *   products_listing, named: without statistics the planner reads whole rows instead, 5×
 *   slower) are counted up to one more than SEARCH_COUNT_CAP (beyond it the count is
 *   "500+"); when they are countable, a second read takes their price, QC count and (for
 *   relevance) FTS5 bm25 rank, they are ranked or sorted here and only the page's rows
 *   are read;
 * - for a term so common that they are not, every match contains it and the newest come
 *   first instead of the best ranked;
 * - newest walks each index in rowid order and stops at the page (two indexes: each up to
 *   the page, then merged);
 * - price, popularity and QC photos sort the matches, or, when there are many, walk the
 *   products' price, views or QC index and stop at the page.
 * A page past the end answers the last page.
 */
export async function searchProducts(
  db: DB,
  terms: SearchTerms,
  options: ListFilter & {
    page: number;
    limit: number;
    sort: ProductSort;
    /** how many matches make a sorted search walk its index first (WALK_WHEN_MATCHES; tests compare both plans) */
    walkWhenMatches?: number;
  },
): Promise<Page<Product> & { totalCapped: boolean }> {
  const empty = { items: [], totalItems: 0, page: 1, limit: options.limit, totalPages: 1, totalCapped: false };
  const units = terms.filter((unit) => !isEmptyUnit(unit));
  if (!units.length) return empty;
  if (onPostgres(db)) return searchProductsPostgres(db, units, options);
  const { branches, post } = matchSource(units);
  const filter = sql`${whereSql(options)} AND ${post}`;
  /** a branch's matches that pass the filters, in rowid order from the newest when `newest` */
  const passing = (branch: Branch, extra: { newest?: boolean; limit: number }) =>
    sql`SELECT f.rowid AS id FROM ${branch.from} JOIN products p INDEXED BY products_listing ON p.id = f.rowid
      WHERE ${branch.where} AND ${filter}${extra.newest ? sql` ORDER BY f.rowid DESC` : sql``} LIMIT ${extra.limit}`;
  const counted = await sql<{ n: number; last: number | null }>`SELECT count(*) AS n, max(id) AS last FROM (${sql.join(
    branches.map((branch) => sql`SELECT id FROM (${passing(branch, { limit: SEARCH_COUNT_CAP + 1 })})`),
    sql` UNION `,
  )})`.execute(db);
  const found = Number(counted.rows[0]?.n ?? 0);
  // the indexes give their matches in id order: the highest id among those counted says
  // how dense the matches are (a sorted search of many uses it, below)
  const lastCounted = Number(counted.rows[0]?.last ?? 0);
  if (found === 0) return empty;
  const totalCapped = found > SEARCH_COUNT_CAP;
  const totalItems = Math.min(found, SEARCH_COUNT_CAP);
  const page = clampPage(options.page, options.limit, totalItems);
  const offset = (page - 1) * options.limit;
  const window = sql`LIMIT ${options.limit} OFFSET ${offset}`;
  const answer = searchAnswer({ totalItems, page, limit: options.limit, totalCapped });
  const pageOf = async (ids: number[]) => answer(await rowsInOrder(db, ids));
  let query;
  if (!totalCapped) {
    // few enough to rank or sort them all here (their sort keys from the covering index;
    // bm25, a few microseconds a row, only when ranking), then read the page's rows
    const ranked = options.sort === "relevance";
    const { rows: candidates } = await sql<Candidate>`${sql.join(
      branches.map(
        (branch) => sql`SELECT f.rowid AS id, p.price_fen, p.qc_count${ranked ? sql`, ${branch.rank} AS rank` : sql``}
          FROM ${branch.from} JOIN products p INDEXED BY products_listing ON p.id = f.rowid WHERE ${branch.where} AND ${filter}`,
      ),
      sql` UNION ALL `,
    )}`.execute(db);
    // once each: a product both indexes found keeps its better rank
    const best = new Map<number, Candidate>();
    for (const candidate of candidates) {
      const known = best.get(candidate.id);
      if (!known || (candidate.rank ?? 0) < (known.rank ?? 0)) best.set(candidate.id, candidate);
    }
    const matches = [...best.values()];
    if (options.sort === "popular") {
      // views change all day, so they are not in the covering index: read for the matches only
      const { rows: views } = await sql<{ id: number; view_count: number }>`SELECT id, view_count FROM products
        WHERE id IN (${sql.join(matches.map((match) => match.id))})`.execute(db);
      const byId = new Map(views.map((row) => [row.id, row.view_count]));
      for (const match of matches) match.view_count = byId.get(match.id) ?? 0;
    }
    return pageOf(
      matches
        .sort(candidateOrder(options.sort))
        .slice(offset, offset + options.limit)
        .map((match) => match.id),
    );
  } else if (options.sort === "newest" || options.sort === "relevance") {
    query =
      branches.length === 1
        ? sql<Row>`SELECT p.* FROM ${branches[0].from} JOIN products p ON p.id = f.rowid
            WHERE ${branches[0].where} AND ${filter} ORDER BY f.rowid DESC ${window}`
        : sql<Row>`SELECT p.* FROM products p WHERE p.id IN (${sql.join(
            branches.map((branch) => sql`SELECT id FROM (${passing(branch, { newest: true, limit: offset + options.limit })})`),
            sql` UNION `,
          )}) ORDER BY p.id DESC ${window}`;
  } else {
    // the index order itself (products without a price come first when going up)
    const [index, order] =
      options.sort === "popular"
        ? [sql`products_views`, sql`p.view_count DESC, p.id DESC`]
        : options.sort === "qc"
          ? [sql`products_qc_count`, sql`p.qc_count DESC, p.id DESC`]
          : options.sort === "price_desc"
            ? [sql`products_price`, sql`p.price_fen DESC, p.id DESC`]
            : [sql`products_price`, sql`p.price_fen ASC, p.id ASC`];
    // Gathering the matches (0.3 µs each) and walking the sort's index against them stops
    // at the page: 1–4 ms at 100,000 products. For a word in a large part of a million
    // products the gathering alone is tens of ms; walking the sort's index and checking
    // each product the filters pass against the full-text index (20–115 µs each) stops at
    // the page sooner, so it is tried when the matches are that dense: SEARCH_COUNT_CAP of
    // them were among the ids up to lastCounted, about SEARCH_COUNT_CAP · maxId /
    // lastCounted in all. The walk checks at most WALK_WINDOW products; when they hold too
    // few matches, the matches are gathered.
    const need = offset + options.limit;
    const maxId = await lastProductId(db);
    const estimated = (SEARCH_COUNT_CAP * maxId) / Math.max(1, lastCounted);
    // the walk pays only when its window holds the page twice over: below that density it
    // mostly ends short and the matches are gathered after it anyway (measured at 100,000
    // products: a walk of 200 costs 3–19 ms, the gathering below 1–4 ms)
    const walkWhen = options.walkWhenMatches ?? Math.max(WALK_WHEN_MATCHES, (2 * need * maxId) / WALK_WINDOW);
    if (estimated >= walkWhen && need <= WALK_WINDOW) {
      const isMatch = sql.join(
        branches.map((branch) => sql`EXISTS (SELECT 1 FROM ${branch.from} WHERE ${branch.where} AND f.rowid = p.id)`),
        sql` OR `,
      );
      const { rows: walked } = await sql<{ id: number }>`SELECT p.id FROM (
          SELECT p.id AS walked FROM products p INDEXED BY ${index} WHERE ${filter} ORDER BY ${order} LIMIT ${WALK_WINDOW}
        ) w JOIN products p ON p.id = w.walked WHERE (${isMatch}) ORDER BY ${order} LIMIT ${need}`.execute(db);
      if (walked.length >= need) return pageOf(walked.slice(offset).map((row) => row.id));
    }
    const matching = sql.join(
      branches.map((branch) => sql`SELECT f.rowid FROM ${branch.from} WHERE ${branch.where}`),
      sql` UNION `,
    );
    query = sql<Row>`SELECT p.* FROM products p INDEXED BY ${index}
      WHERE p.id IN (${matching}) AND ${filter} ORDER BY ${order} ${window}`;
  }
  return answer((await query.execute(db)).rows);
}

/** A search's page of products from its rows (SQLite's search and PostgreSQL's alike). */
export function searchAnswer(counts: { totalItems: number; page: number; limit: number; totalCapped: boolean }) {
  return (rows: Row[]): Page<Product> & { totalCapped: boolean } => ({
    items: rows.map(toProduct),
    totalItems: counts.totalItems,
    page: counts.page,
    limit: counts.limit,
    totalPages: pageCount(counts.totalItems, counts.limit),
    totalCapped: counts.totalCapped,
  });
}

/** The products of these ids, in this order, in one query. */
export async function rowsInOrder(db: DB, ids: number[]): Promise<Row[]> {
  if (!ids.length) return [];
  const { rows } = await sql<Row>`SELECT p.* FROM products p WHERE p.id IN (${sql.join(ids)})`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
