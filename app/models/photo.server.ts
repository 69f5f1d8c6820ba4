/**
 * Photo fingerprints and staff's same-item decisions (migration 20261207090000,
 * docs/decisions/047-photo-index.md). Rows of photo_fingerprints are added and deleted,
 * never changed; a trigger records each deletion in photo_fingerprint_removals for the
 * other instances' indexes.
 */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";

export type FingerprintRow = {
  id: number;
  productId: number;
  qcImageId: number | null;
  imageUrl: string;
  /** hex, 16 digits a hash; null when the picture could not be read */
  hashes: string | null;
  /** when it was made (ISO) */
  createdAt?: string;
  /** the detail hash (fingerprintsOfProduct) */
  detail?: string | null;
  /** the windows' checks (fingerprintsOfProduct); null in a row made before checks */
  checks?: string | null;
};

export type NewFingerprint = {
  productId: number;
  qcImageId: number | null;
  imageUrl: string;
  hashes: string | null;
  detail: string | null;
  checks: string | null;
  error: string | null;
};

const columns = ["id", "product_id", "qc_image_id", "image_url", "hashes"] as const;
type Selected = { id: number; product_id: number; qc_image_id: number | null; image_url: string; hashes: string | null };
const toRow = (row: Selected): FingerprintRow => ({
  id: Number(row.id),
  productId: Number(row.product_id),
  qcImageId: row.qc_image_id === null ? null : Number(row.qc_image_id),
  imageUrl: row.image_url,
  hashes: row.hashes,
});

/** A product's fingerprint rows (read ones and failed ones). */
export async function fingerprintsOfProduct(db: DB, productId: number): Promise<FingerprintRow[]> {
  const rows = await db
    .selectFrom("photo_fingerprints")
    .select([...columns, "created_at", "detail", "checks"])
    .where("product_id", "=", productId)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...toRow(row), createdAt: row.created_at, detail: row.detail, checks: row.checks }));
}

/** Adds fingerprints; one the product already has for that address is left as it is. */
export async function insertFingerprints(db: DB, rows: NewFingerprint[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto("photo_fingerprints")
    .values(
      rows.map((row) => ({
        product_id: row.productId,
        qc_image_id: row.qcImageId,
        image_url: row.imageUrl,
        hashes: row.hashes,
        detail: row.detail,
        checks: row.checks,
        error: row.error,
      })),
    )
    .onConflict((conflict) => conflict.columns(["product_id", "image_url"]).doNothing())
    .execute();
}

export async function deleteFingerprints(db: DB, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom("photo_fingerprints").where("id", "in", ids).execute();
}

/** Read fingerprints with ids above `afterId`, in id order (the index loads and follows them). */
export async function readableFingerprintsAfter(db: DB, afterId: number, limit: number): Promise<FingerprintRow[]> {
  const rows = await db
    .selectFrom("photo_fingerprints")
    .select(columns)
    .where("id", ">", afterId)
    .where("hashes", "is not", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/** The detail hashes of these fingerprints: id → detail (those without one are left out). */
export async function detailsOf(db: DB, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("photo_fingerprints").select(["id", "detail"]).where("id", "in", ids).execute();
  return new Map(rows.flatMap((row) => (row.detail ? [[Number(row.id), row.detail] as const] : [])));
}

/** The windows' checks of these fingerprints: id → checks (those made before checks are left out). */
export async function checksOf(db: DB, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("photo_fingerprints").select(["id", "checks"]).where("id", "in", ids).execute();
  return new Map(rows.flatMap((row) => (row.checks ? [[Number(row.id), row.checks] as const] : [])));
}

/** Products with a readable fingerprint made before checks (the sync reads their pictures again), by that row's id. */
export async function productsUnchecked(db: DB, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("photo_fingerprints")
    .select("product_id")
    .where("checks", "is", null)
    .where("hashes", "is not", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return [...new Set(rows.map((row) => Number(row.product_id)))];
}

/** The hashes and checks of a readable picture by its address (any product's), or null. */
export async function readableHashesOfUrl(db: DB, imageUrl: string): Promise<{ hashes: string; checks: string | null } | null> {
  const row = await db
    .selectFrom("photo_fingerprints")
    .select(["hashes", "checks"])
    .where("image_url", "=", imageUrl)
    .where("hashes", "is not", null)
    .limit(1)
    .executeTakeFirst();
  return row?.hashes ? { hashes: row.hashes, checks: row.checks } : null;
}

/** Removals recorded after `afterId`: [removal id, fingerprint id]. */
export async function removalsAfter(db: DB, afterId: number): Promise<Array<{ id: number; fingerprintId: number }>> {
  const rows = await db
    .selectFrom("photo_fingerprint_removals")
    .select(["id", "fingerprint_id"])
    .where("id", ">", afterId)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ id: Number(row.id), fingerprintId: Number(row.fingerprint_id) }));
}

/** The last removal's id (an index loaded from scratch follows removals from here). */
export async function lastRemovalId(db: DB): Promise<number> {
  const row = await db
    .selectFrom("photo_fingerprint_removals")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Forgets removals recorded before `before` (ISO): every index has read them by then. */
export async function pruneRemovals(db: DB, before: string): Promise<void> {
  await db.deleteFrom("photo_fingerprint_removals").where("created_at", "<", before).execute();
}

/** What a product's pictures are: its images (JSON) and its approved QC photos. */
export type ProductPictures = { productId: number; images: string[]; qc: Array<{ id: number; url: string }> };

/** Products changed at or after a point of (updated_at, id), in that order. */
export async function productsChangedAfter(
  db: DB,
  after: { at: string; id: number },
  limit: number,
): Promise<Array<{ id: number; updatedAt: string }>> {
  const rows = await db
    .selectFrom("products")
    .select(["id", "updated_at"])
    .where((eb) => eb.or([eb("updated_at", ">", after.at), eb.and([eb("updated_at", "=", after.at), eb("id", ">", after.id)])]))
    .orderBy("updated_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: Number(row.id), updatedAt: row.updated_at }));
}

/** The last product change: its (updated_at, id), or null for an empty catalogue. */
export async function newestProductChange(db: DB): Promise<{ at: string; id: number } | null> {
  const row = await db
    .selectFrom("products")
    .select(["id", "updated_at"])
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { at: row.updated_at, id: Number(row.id) } : null;
}

/** QC photos approved since a point: new approved ones by id, reviewed ones by review time. */
export async function qcApprovedAfter(
  db: DB,
  after: { id: number; reviewedAt: string; reviewedId: number },
  limit: number,
): Promise<{ inserted: Array<{ id: number; productId: number }>; reviewed: Array<{ id: number; productId: number; reviewedAt: string }> }> {
  const inserted = await db
    .selectFrom("qc_images")
    .select(["id", "product_id"])
    .where("id", ">", after.id)
    .orderBy("id")
    .limit(limit)
    .execute();
  const reviewed = await db
    .selectFrom("qc_images")
    .select(["id", "product_id", "reviewed_at"])
    .where((eb) =>
      eb.or([
        eb("reviewed_at", ">", after.reviewedAt),
        eb.and([eb("reviewed_at", "=", after.reviewedAt), eb("id", ">", after.reviewedId)]),
      ]),
    )
    .orderBy("reviewed_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return {
    inserted: inserted.map((row) => ({ id: Number(row.id), productId: Number(row.product_id) })),
    reviewed: reviewed.map((row) => ({ id: Number(row.id), productId: Number(row.product_id), reviewedAt: row.reviewed_at ?? "" })),
  };
}

/** A product's pictures, or null when it is gone. */
export async function picturesOfProduct(db: DB, productId: number): Promise<ProductPictures | null> {
  const product = await db.selectFrom("products").select(["id", "images"]).where("id", "=", productId).executeTakeFirst();
  if (!product) return null;
  const qc = await db
    .selectFrom("qc_images")
    .select(["id", "image_url"])
    .where("product_id", "=", productId)
    .where("status", "=", "approved")
    .where("image_url", "is not", null)
    .orderBy("id")
    .execute();
  let images: string[] = [];
  try {
    const parsed: unknown = JSON.parse(product.images);
    if (Array.isArray(parsed)) images = parsed.filter((url): url is string => typeof url === "string" && url !== "");
  } catch {
    images = [];
  }
  return { productId, images, qc: qc.map((row) => ({ id: Number(row.id), url: row.image_url! })) };
}

/** Products with a picture recorded as unreadable before `before` (ISO), oldest first: to try again. */
export async function productsUnreadableBefore(db: DB, before: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("photo_fingerprints")
    .select(["product_id"])
    .where("hashes", "is", null)
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .execute();
  return [...new Set(rows.map((row) => Number(row.product_id)))];
}

export type FingerprintProgress = { products: number; done: number; pictures: number; unreadable: number };

/**
 * How far the fingerprints have come among the products with ids in [from, to): products
 * with pictures, how many of them have fingerprints, and the pictures read and unreadable.
 * Counted a slice of ids at a time (fingerprintProgress in photo-search.server.ts): one count
 * of the whole catalogue was 100 ms at 100,000 products, a stall of every request at a million.
 */
export async function fingerprintProgressBetween(db: DB, from: number, to: number): Promise<FingerprintProgress> {
  const { rows } = await sql<FingerprintProgress>`SELECT
      (SELECT count(*) FROM products WHERE id >= ${from} AND id < ${to} AND (images <> '[]' OR qc_count > 0)) AS products,
      count(DISTINCT product_id) AS done,
      count(hashes) AS pictures,
      count(*) - count(hashes) AS unreadable
    FROM photo_fingerprints WHERE product_id >= ${from} AND product_id < ${to}`.execute(db);
  const row = rows[0];
  return { products: Number(row.products), done: Number(row.done), pictures: Number(row.pictures), unreadable: Number(row.unreadable) };
}

export type SameItemDecision = { productId: number; otherProductId: number; decision: "linked" | "dismissed" };

/** Staff's decisions about one product, each seen from it (otherProductId is the other one). */
export async function decisionsOf(db: DB, productId: number): Promise<SameItemDecision[]> {
  const rows = await db
    .selectFrom("same_item_decisions")
    .select(["product_id", "other_product_id", "decision"])
    .where((eb) => eb.or([eb("product_id", "=", productId), eb("other_product_id", "=", productId)]))
    .execute();
  return rows.map((row) => ({
    productId,
    otherProductId: Number(row.product_id) === productId ? Number(row.other_product_id) : Number(row.product_id),
    decision: row.decision,
  }));
}

/** Records (or changes) staff's word on two products. */
export async function decideSameItem(db: DB, a: number, b: number, decision: "linked" | "dismissed", by: number | null): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await db
    .insertInto("same_item_decisions")
    .values({ product_id: low, other_product_id: high, decision, decided_by: by })
    .onConflict((conflict) => conflict.columns(["product_id", "other_product_id"]).doUpdateSet({ decision, decided_by: by }))
    .execute();
}

/** Forgets staff's word on two products (they are judged by their photos again). */
export async function forgetSameItemDecision(db: DB, a: number, b: number): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await db.deleteFrom("same_item_decisions").where("product_id", "=", low).where("other_product_id", "=", high).execute();
}
