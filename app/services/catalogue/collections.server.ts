/**
 * Collections: the products a shopper keeps.
 */
import { type FieldError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { addToCollection, isCollected, listCollection, removeFromCollection, type CollectedProduct } from "~/models/collection.server";
import { findProductById, type Page } from "~/models/product.server";
import type { User } from "~/models/user.server";
import { flushViews } from "../view-counts.server";
import { isForeignKeyViolation } from "~/lib/db-errors.server";
import { notFound } from "./products.server";

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
