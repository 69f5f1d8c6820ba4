/** A user's collected products: one row per (user, product). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { caseless } from "./sql-dialect.server";
import type { ProductsTable } from "../../db/schema";
import { toProduct, type Page, type Product } from "./product.server";
import type { Selectable } from "kysely";

export async function isCollected(db: DB, userId: number, productId: number): Promise<boolean> {
  const row = await db
    .selectFrom("collections")
    .select("product_id")
    .where("user_id", "=", userId)
    .where("product_id", "=", productId)
    .executeTakeFirst();
  return Boolean(row);
}

/** Adds (idempotent): true when the row is new. */
export async function addToCollection(db: DB, userId: number, productId: number): Promise<boolean> {
  const result = await db
    .insertInto("collections")
    .values({ user_id: userId, product_id: productId })
    .onConflict((oc) => oc.columns(["user_id", "product_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeFromCollection(db: DB, userId: number, productId: number): Promise<boolean> {
  const result = await db.deleteFrom("collections").where("user_id", "=", userId).where("product_id", "=", productId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export type CollectedProduct = Product & { collectedAt: string };

/** A page of a user's collection, by date collected (default newest first), price or name. */
export async function listCollection(
  db: DB,
  userId: number,
  options: { sort: "date" | "price" | "name"; order: "asc" | "desc"; page: number; limit: number },
): Promise<Page<CollectedProduct>> {
  const counted = await db
    .selectFrom("collections")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const totalItems = Number(counted.n);
  const totalPages = Math.max(1, Math.ceil(totalItems / options.limit));
  const page = Math.min(Math.max(1, options.page), totalPages);
  const direction = options.order === "asc" ? sql`ASC` : sql`DESC`;
  const order =
    options.sort === "price"
      ? sql`p.price_fen IS NULL, p.price_fen ${direction}, c.created_at DESC`
      : options.sort === "name"
        ? sql`${caseless(db, sql`p.name`)} ${direction}, c.created_at DESC`
        : sql`c.created_at ${direction}, p.id ${direction}`;
  const { rows } = await sql<Selectable<ProductsTable> & { collected_at: string }>`
    SELECT p.*, c.created_at AS collected_at FROM collections c JOIN products p ON p.id = c.product_id
    WHERE c.user_id = ${userId} ORDER BY ${order} LIMIT ${options.limit} OFFSET ${(page - 1) * options.limit}`.execute(db);
  return {
    items: rows.map(({ collected_at, ...row }) => ({ ...toProduct(row), collectedAt: collected_at })),
    totalItems,
    page,
    limit: options.limit,
    totalPages,
  };
}
