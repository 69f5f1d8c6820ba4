/**
 * The week's trends (docs/decisions/048-shoppers-comparisons.md): products by the QC photos
 * approved since a time, and by the collections made since then, most first. Each reads an
 * index range (qc_images_status_created, collections_created): the week's rows, not all.
 */
import type { DB } from "~/lib/db.server";

export type TrendRow = { productId: number; count: number };

export async function qcPhotographedSince(db: DB, since: string, limit: number): Promise<TrendRow[]> {
  const rows = await db
    .selectFrom("qc_images")
    .select(({ fn }) => ["product_id", fn.countAll<number>().as("n"), fn.max("id").as("last")])
    .where("status", "=", "approved")
    .where("created_at", ">=", since)
    .groupBy("product_id")
    .orderBy("n", "desc")
    .orderBy("last", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ productId: row.product_id, count: Number(row.n) }));
}

export async function collectedSince(db: DB, since: string, limit: number): Promise<TrendRow[]> {
  const rows = await db
    .selectFrom("collections")
    .select(({ fn }) => ["product_id", fn.countAll<number>().as("n"), fn.max("created_at").as("last")])
    .where("created_at", ">=", since)
    .groupBy("product_id")
    .orderBy("n", "desc")
    .orderBy("last", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ productId: row.product_id, count: Number(row.n) }));
}
