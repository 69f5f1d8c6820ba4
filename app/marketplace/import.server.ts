/**
 * An item becomes a product (docs/decisions/020-marketplace-links.md, "Find or import"):
 * crawled (crawl.server.ts), then made an external product by the catalogue's sync, once
 * also under parallel imports; POST /api/products/sync-external; the storefront's words
 * for an import's failure.
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { canAny, type Access } from "~/lib/permissions";
import { findProductByPlatformItem } from "~/models/product.server";
import type { User } from "~/models/user.server";
import type { SyncExternalBody } from "~/schemas/catalogue";
import { marketplaceUrl, type Platform } from "~/schemas/catalogue-rules";
import { PASTE_MESSAGES as P } from "~/schemas/marketplace-rules";
import { type ProductWithSkus } from "~/services/catalogue/common.server";
import { getProduct, syncExternalProduct } from "~/services/catalogue/products.server";
import { limitMarketplaceFetches } from "~/services/rate-limit.server";
import { FetchFailed, ItemNotFound } from "./crawl-adapter.server";
import { crawlItem } from "./crawl.server";

/**
 * The pictures of a crawled item a product may show: marketplace pictures only, by their
 * absolute address (never a path on this site, such as someone's unreviewed upload).
 */
function marketplacePictures(images: string[]): string[] {
  return images.filter((image) => /^https?:\/\//i.test(image)).slice(0, 20);
}

/**
 * Crawls an item and makes it an external product (once, also under parallel imports):
 * everything it shows comes from the marketplace's own answer, its link is the
 * marketplace's address for the item. A crawl that fails stores nothing.
 */
export async function importItem(
  platform: Platform,
  itemId: string,
  actor: { user: User; access: Access },
): Promise<{ product: ProductWithSkus; created: boolean }> {
  const item = await crawlItem(platform, itemId);
  return syncExternalProduct(
    {
      itemId: item.itemId,
      title: item.title,
      price: item.priceCny,
      images: marketplacePictures(item.images),
      source: item.platform,
      skus: item.skus.map((sku) => ({
        sku_name: sku.name.slice(0, 100),
        sku_price: sku.priceCny,
        sku_stock: sku.stock,
        sku_thumbnail_url: sku.thumbnailUrl,
      })),
      description: item.description,
      isExternalProduct: true,
      showInListing: true,
      originalUrl: marketplaceUrl(platform, item.itemId),
      shopName: item.shopName,
    },
    actor,
  );
}

/**
 * POST /api/products/sync-external. Staff who create or edit products give the item's
 * data (the spec's body). Anyone else only names the item (`source`, `itemId`): the server
 * reads it from the marketplace itself (counted against their marketplace limit), so a
 * shopper can neither put their own title, pictures or link on an item nor take an item
 * id for something else. An item already in the catalogue is answered as it is.
 */
export async function syncExternal(
  body: SyncExternalBody,
  actor: { user: User; access: Access },
  clientIp: string,
): Promise<{ product: ProductWithSkus; created: boolean }> {
  if (canAny(actor.access, ["product.create", "product.edit"])) return syncExternalProduct(body, actor);
  const existing = await findProductByPlatformItem(getDb(), body.source, body.itemId);
  if (existing) return { product: await getProduct(existing.id), created: false };
  await limitMarketplaceFetches(actor.user.id, clientIp);
  return importItem(body.source, body.itemId, actor);
}

/** The storefront's words for an import's failure. */
export function importFailureText(error: unknown, platform: Platform): string | null {
  if (error instanceof ItemNotFound) return P.notFound(platform);
  if (error instanceof FetchFailed) return P.fetchFailed(platform);
  if (error instanceof ApiError && error.status === 429) return P.tooMany;
  return null;
}
