/** QC photos of products: queries only (the rules are in app/services/qc.server.ts). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import type { Platform, QcStatus } from "../../db/schema";
import { serializeOn } from "./sql-dialect.server";

export type { QcStatus };

export type QcImage = {
  id: number;
  productId: number;
  status: QcStatus;
  /** null once rejected (its files are deleted) */
  imageUrl: string | null;
  thumbUrl: string | null;
  width: number | null;
  height: number | null;
  thumbWidth: number | null;
  thumbHeight: number | null;
  bytes: number;
  setKey: string;
  uploadedBy: number | null;
  uploaderName: string | null;
  reviewedBy: number | null;
  reviewedAt: string | null;
  reviewReason: string | null;
  /** the SKU (by name) the photo shows, when the uploader said */
  skuName: string | null;
  createdAt: string;
};

export type QcImageWithProduct = QcImage & { productName: string; productPlatform: Platform | null; productItemId: string | null };

type Row = {
  id: number;
  product_id: number;
  status: QcStatus;
  image_url: string | null;
  thumb_url: string | null;
  width: number | null;
  height: number | null;
  thumb_width: number | null;
  thumb_height: number | null;
  bytes: number;
  set_key: string;
  uploaded_by: number | null;
  uploader_name: string | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  review_reason: string | null;
  sku_name: string | null;
  created_at: string;
};

function toQcImage(row: Row): QcImage {
  return {
    id: row.id,
    productId: row.product_id,
    status: row.status,
    imageUrl: row.image_url,
    thumbUrl: row.thumb_url,
    width: row.width,
    height: row.height,
    thumbWidth: row.thumb_width,
    thumbHeight: row.thumb_height,
    bytes: row.bytes,
    setKey: row.set_key,
    uploadedBy: row.uploaded_by,
    uploaderName: row.uploader_name,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at,
    reviewReason: row.review_reason,
    skuName: row.sku_name ?? null,
    createdAt: row.created_at,
  };
}

function selectImages(db: DB) {
  return db
    .selectFrom("qc_images as q")
    .leftJoin("users as u", "u.id", "q.uploaded_by")
    .selectAll("q")
    .select("u.username as uploader_name");
}

export type NewQcImage = {
  productId: number;
  status: Exclude<QcStatus, "rejected">;
  imageUrl: string;
  thumbUrl: string;
  width: number;
  height: number;
  thumbWidth: number;
  thumbHeight: number;
  bytes: number;
  setKey: string;
  uploadedBy: number | null;
  reviewedBy?: number | null;
  /** SHA-256 (hex) of the file sent */
  contentHash?: string | null;
  /** the SKU (by name) the photo shows */
  skuName?: string | null;
};

/** Which of these file hashes the user already has as a pending or approved QC photo of the product. */
export async function uploadedHashes(db: DB, productId: number, userId: number, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom("qc_images")
    .select("content_hash")
    .where("product_id", "=", productId)
    .where("uploaded_by", "=", userId)
    .where("status", "in", ["pending", "approved"])
    .where("content_hash", "in", hashes)
    .execute();
  return new Set(rows.map((row) => row.content_hash!));
}

export async function insertQcImages(db: DB, images: NewQcImage[]): Promise<number[]> {
  if (images.length === 0) return [];
  const rows = await db
    .insertInto("qc_images")
    .values(
      images.map((image) => ({
        product_id: image.productId,
        status: image.status,
        image_url: image.imageUrl,
        thumb_url: image.thumbUrl,
        width: image.width,
        height: image.height,
        thumb_width: image.thumbWidth,
        thumb_height: image.thumbHeight,
        bytes: image.bytes,
        set_key: image.setKey,
        uploaded_by: image.uploadedBy,
        reviewed_by: image.reviewedBy ?? null,
        reviewed_at: image.status === "approved" ? new Date().toISOString() : null,
        content_hash: image.contentHash ?? null,
        sku_name: image.skuName ?? null,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

export async function findQcImage(db: DB, id: number): Promise<QcImageWithProduct | undefined> {
  const row = await selectImages(db)
    .innerJoin("products as p", "p.id", "q.product_id")
    .select(["p.name as product_name", "p.platform as product_platform", "p.platform_item_id as product_item_id"])
    .where("q.id", "=", id)
    .executeTakeFirst();
  return (
    row && { ...toQcImage(row), productName: row.product_name, productPlatform: row.product_platform, productItemId: row.product_item_id }
  );
}

export async function findQcImages(db: DB, ids: number[]): Promise<QcImage[]> {
  if (ids.length === 0) return [];
  return (await selectImages(db).where("q.id", "in", ids).execute()).map(toQcImage);
}

/** A product's photos of the given statuses, oldest first within the newest sets first. */
export async function qcImagesOfProduct(db: DB, productId: number, statuses: QcStatus[]): Promise<QcImage[]> {
  const rows = await selectImages(db)
    .where("q.product_id", "=", productId)
    .where("q.status", "in", statuses)
    .orderBy("q.id", "desc")
    .execute();
  return rows.map(toQcImage);
}

/** One user's photos of one product (their pending ones and the reasons of rejected ones). */
export async function qcImagesOfUploader(db: DB, productId: number, userId: number): Promise<QcImage[]> {
  const rows = await selectImages(db)
    .where("q.product_id", "=", productId)
    .where("q.uploaded_by", "=", userId)
    .orderBy("q.id", "desc")
    .execute();
  return rows.map(toQcImage);
}

export type QcUploadStats = { totalUploads: number; pendingUploads: number; approvedUploads: number; rejectedUploads: number };

export async function uploaderStats(db: DB, productId: number, userId: number): Promise<QcUploadStats> {
  const row = await db
    .selectFrom("qc_images")
    .where("product_id", "=", productId)
    .where("uploaded_by", "=", userId)
    .select([
      sql<number>`count(*)`.as("total"),
      sql<number>`count(*) FILTER (WHERE status = 'pending')`.as("pending"),
      sql<number>`count(*) FILTER (WHERE status = 'approved')`.as("approved"),
      sql<number>`count(*) FILTER (WHERE status = 'rejected')`.as("rejected"),
    ])
    .executeTakeFirstOrThrow();
  return {
    totalUploads: Number(row.total),
    pendingUploads: Number(row.pending),
    approvedUploads: Number(row.approved),
    rejectedUploads: Number(row.rejected),
  };
}

/** Photos of a product that count against a user's allowance (pending and approved). */
export async function countActiveUploads(db: DB, productId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom("qc_images")
    .where("product_id", "=", productId)
    .where("uploaded_by", "=", userId)
    .where("status", "in", ["pending", "approved"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Pending photos, oldest first (the review queue), with their products. */
export async function listPendingQcImages(
  db: DB,
  options: { page: number; limit: number },
): Promise<{ items: QcImageWithProduct[]; totalItems: number; page: number; totalPages: number }> {
  const counted = await db
    .selectFrom("qc_images")
    .where("status", "=", "pending")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const totalItems = Number(counted.n);
  const totalPages = Math.max(1, Math.ceil(totalItems / options.limit));
  const page = Math.min(Math.max(1, options.page), totalPages);
  const rows = await selectImages(db)
    .innerJoin("products as p", "p.id", "q.product_id")
    .select(["p.name as product_name", "p.platform as product_platform", "p.platform_item_id as product_item_id"])
    .where("q.status", "=", "pending")
    .orderBy("q.id", "asc")
    .limit(options.limit)
    .offset((page - 1) * options.limit)
    .execute();
  const items = rows.map((row) => ({
    ...toQcImage(row),
    productName: row.product_name,
    productPlatform: row.product_platform,
    productItemId: row.product_item_id,
  }));
  return { items, totalItems, page, totalPages };
}

export async function countQcImages(db: DB): Promise<{ approved: number; pending: number }> {
  const row = await db
    .selectFrom("qc_images")
    .select([
      sql<number>`count(*) FILTER (WHERE status = 'approved')`.as("approved"),
      sql<number>`count(*) FILTER (WHERE status = 'pending')`.as("pending"),
    ])
    .executeTakeFirstOrThrow();
  return { approved: Number(row.approved), pending: Number(row.pending) };
}

/** Up to `perProduct` approved photos of each product (cards of the QC manager), newest first. */
export async function approvedPreviews(db: DB, productIds: number[], perProduct: number): Promise<Map<number, QcImage[]>> {
  const previews = new Map<number, QcImage[]>();
  if (productIds.length === 0) return previews;
  const { rows } = await sql<Row & { n: number }>`
    SELECT * FROM (
      SELECT q.*, u.username AS uploader_name,
        row_number() OVER (PARTITION BY q.product_id ORDER BY q.id DESC) AS n
      FROM qc_images q LEFT JOIN users u ON u.id = q.uploaded_by
      WHERE q.status = 'approved' AND q.product_id IN (${sql.join(productIds)})
    ) AS ranked WHERE n <= ${perProduct} ORDER BY product_id, id DESC`.execute(db);
  for (const row of rows) {
    const list = previews.get(row.product_id) ?? [];
    list.push(toQcImage(row));
    previews.set(row.product_id, list);
  }
  return previews;
}

/** Within a transaction: the other uploads of this person to this product wait for it (sql-dialect's serializeOn). */
export function lockUploaderOfProduct(db: DB, productId: number, userId: number): Promise<void> {
  return serializeOn(db, `qc-allowance:${productId}:${userId}`);
}

/** Pending photos per product (the QC manager shows them beside the approved count). */
export async function pendingCounts(db: DB, productIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (productIds.length === 0) return counts;
  const rows = await db
    .selectFrom("qc_images")
    .where("status", "=", "pending")
    .where("product_id", "in", productIds)
    .groupBy("product_id")
    .select(["product_id", (eb) => eb.fn.countAll<number>().as("n")])
    .execute();
  for (const row of rows) counts.set(row.product_id, Number(row.n));
  return counts;
}

/** When the newest approved QC set of each product was sent (products without one are left out). */
export async function latestApprovedQcDates(db: DB, productIds: number[]): Promise<Map<number, string>> {
  const dates = new Map<number, string>();
  if (productIds.length === 0) return dates;
  const rows = await db
    .selectFrom("qc_images")
    .where("status", "=", "approved")
    .where("product_id", "in", productIds)
    .groupBy("product_id")
    .select(["product_id", (eb) => eb.fn.max("created_at").as("latest")])
    .execute();
  for (const row of rows) if (row.latest) dates.set(row.product_id, String(row.latest));
  return dates;
}

/** Approves a pending photo; false when it is no longer pending (someone else was first). */
export async function approvePending(db: DB, id: number, reviewerId: number, reason: string | null): Promise<boolean> {
  const result = await db
    .updateTable("qc_images")
    .set({ status: "approved", reviewed_by: reviewerId, reviewed_at: new Date().toISOString(), review_reason: reason })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rejects a pending photo: its addresses go (the files are deleted by the caller). */
export async function rejectPending(db: DB, id: number, reviewerId: number, reason: string | null): Promise<boolean> {
  const result = await db
    .updateTable("qc_images")
    .set({
      status: "rejected",
      reviewed_by: reviewerId,
      reviewed_at: new Date().toISOString(),
      review_reason: reason,
      image_url: null,
      thumb_url: null,
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteQcImageRow(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("qc_images").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Every stored address of a product's uploaded photos (to delete the files with the product; linked ones own none). */
export async function qcFileUrlsOfProduct(db: DB, productId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("qc_images")
    .select(["image_url", "thumb_url"])
    .where("product_id", "=", productId)
    .where("bytes", ">", 0)
    .execute();
  return rows.flatMap((row) => [row.image_url, row.thumb_url]).filter((url): url is string => url !== null);
}

/**
 * The product's QC photos given by address (the admin product body's `qc_images`,
 * docs/product/admin.md 7): approved rows with no file of their own (bytes 0), so deleting one
 * never deletes a file the address points at. The list replaces the linked photos
 * (those not in it go); photos uploaded through the QC screens are never touched.
 */
export async function setLinkedQcImages(db: DB, productId: number, urls: string[], actorId: number | null): Promise<void> {
  const wanted = [...new Set(urls)];
  const linked = await db
    .selectFrom("qc_images")
    .select(["id", "image_url"])
    .where("product_id", "=", productId)
    .where("bytes", "=", 0)
    .execute();
  const gone = linked.filter((row) => !row.image_url || !wanted.includes(row.image_url)).map((row) => row.id);
  if (gone.length) await db.deleteFrom("qc_images").where("id", "in", gone).execute();
  const have = new Set(linked.map((row) => row.image_url));
  const added = wanted.filter((url) => !have.has(url));
  if (!added.length) return;
  const at = new Date().toISOString();
  await db
    .insertInto("qc_images")
    .values(
      added.map((url) => ({
        product_id: productId,
        status: "approved",
        image_url: url,
        thumb_url: url,
        bytes: 0,
        set_key: `linked-${productId}-${at}`,
        uploaded_by: actorId,
        reviewed_by: actorId,
        reviewed_at: at,
      })),
    )
    .execute();
}

/** The addresses of a product's approved QC photos, oldest first (the product JSON's `qc_images`). */
export async function approvedQcUrls(db: DB, productId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("qc_images")
    .select("image_url")
    .where("product_id", "=", productId)
    .where("status", "=", "approved")
    .where("image_url", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.image_url!);
}

/** The addresses of the product's linked QC photos (see setLinkedQcImages), oldest first. */
export async function linkedQcUrls(db: DB, productId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("qc_images")
    .select("image_url")
    .where("product_id", "=", productId)
    .where("bytes", "=", 0)
    .where("image_url", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.image_url!);
}
