/**
 * The catalogue's shared rules: who sees which products (docs/product/admin.md 2: with
 * show_external_products off, external products leave the storefront lists but a direct link
 * or a platform lookup still shows them; products with show_in_listing off are reachable only
 * directly; callers with product permissions always see everything), and the paths and JSON
 * of products that pages and /api share.
 */
import { getDb } from "~/lib/db.server";
import type { Access } from "~/lib/permissions";
import { type Category, type CategoryWithCount } from "~/models/category.server";
import { approvedQcUrls } from "~/models/qc.server";
import { SEARCH_COUNT_CAP, type ListFilter, type Page, type Product, type ProductWithSkus } from "~/models/product.server";
import { isTrue } from "~/schemas/site-settings";
import { loadSettings } from "../site-settings.server";
import { sameItemElsewhere } from "./same-item.server";

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
  const [qcImages, sameItem] = await Promise.all([approvedQcUrls(getDb(), product.id), sameItemElsewhere(product.id)]);
  return {
    ...productJson(product),
    qc_images: qcImages,
    // other listings whose photos match (issue 38), cheapest first
    sameItem: sameItem.map((item) => ({ product: productJson(item.product), score: item.score })),
  };
}

export type ProductJson = ReturnType<typeof productJson>;
