/**
 * Photo search and "the same item elsewhere" as the catalogue shows them (issue 38): the
 * products behind the photo index's matches (app/services/photos/photo-search.server.ts),
 * and staff's word on two listings (linked: the same item; dismissed: not).
 */
import { getDb } from "~/lib/db.server";
import { decideSameItem, forgetSameItemDecision, decisionsOf } from "~/models/photo.server";
import { findProductById, rowsInOrder, toProduct, type Product } from "~/models/product.server";
import { sameItemOf, SAME_ITEM_MAX, type PhotoSearchItem } from "~/services/photos/photo-search.server";
import type { Actor } from "../permissions.server";
import { staffWrite } from "../writes.server";
import { notFound } from "./products.server";

/** The products of these ids that still exist, in this order. */
export async function productsInOrder(ids: number[]): Promise<Product[]> {
  return (await rowsInOrder(getDb(), ids)).map(toProduct);
}

export type PhotoMatchProduct = { product: Product; score: number; imageUrl: string };

/** Photo matches with their products (a product deleted meanwhile drops out). */
export async function withProducts(items: PhotoSearchItem[]): Promise<PhotoMatchProduct[]> {
  const products = new Map((await productsInOrder(items.map((item) => item.productId))).map((product) => [product.id, product]));
  return items.flatMap((item) => {
    const product = products.get(item.productId);
    return product ? [{ product, score: item.score, imageUrl: item.imageUrl }] : [];
  });
}

/** Other listings of a product's item, cheapest first (those without a price last), at most SAME_ITEM_MAX. */
export async function sameItemElsewhere(productId: number): Promise<Array<{ product: Product; score: number }>> {
  const found = await sameItemOf(productId);
  const scores = new Map(found.map((item) => [item.productId, item.score]));
  const products = await productsInOrder(found.map((item) => item.productId));
  return products
    .sort((a, b) => (a.priceCny ?? Infinity) - (b.priceCny ?? Infinity) || a.id - b.id)
    .slice(0, SAME_ITEM_MAX)
    .map((product) => ({ product, score: scores.get(product.id) ?? 0 }));
}

/** What the back office shows on a product: the listings its photos match, each with staff's word if any. */
export async function probablySameItems(
  productId: number,
): Promise<Array<{ product: Product; score: number; decision: "linked" | "dismissed" | null }>> {
  const decisions = new Map((await decisionsOf(getDb(), productId)).map((decision) => [decision.otherProductId, decision.decision]));
  const found = await sameItemOf(productId, { includeDismissed: true });
  const products = new Map((await productsInOrder(found.map((item) => item.productId))).map((product) => [product.id, product]));
  return found.flatMap((item) => {
    const product = products.get(item.productId);
    return product ? [{ product, score: item.score, decision: decisions.get(item.productId) ?? null }] : [];
  });
}

/**
 * For the back office's lists (an import's rows): which other products each product's
 * photos match, without those staff dismissed. Product id → the others' ids, best first.
 */
export async function probablySameAs(productIds: number[]): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  for (const productId of new Set(productIds)) {
    const others = await sameItemOf(productId);
    if (others.length)
      found.set(
        productId,
        others.sort((a, b) => b.score - a.score || a.productId - b.productId).map((item) => item.productId),
      );
  }
  return found;
}

/** Staff's word that two listings are (linked) or are not (dismissed) the same item; `null` forgets it. */
export const decideSameItemByAdmin = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"] },
  async (productId: number, otherProductId: number, decision: "linked" | "dismissed" | null, actor: Actor): Promise<void> => {
    if (productId === otherProductId || !(await findProductById(getDb(), productId)) || !(await findProductById(getDb(), otherProductId))) {
      throw notFound();
    }
    if (decision === null) await forgetSameItemDecision(getDb(), productId, otherProductId);
    else await decideSameItem(getDb(), productId, otherProductId, decision, actor.user.id);
  },
);
