/**
 * QC photos (docs/decisions/019-qc-photos.md): uploads by shoppers (pending review, 10 per
 * product each) and by staff (published at once), the review, deletion, the product
 * page's gallery and the back office's lists. Pages and /api call these same functions;
 * they throw ApiError.
 *
 * Files go through the uploads service: checked by their bytes (JPEG, PNG, WebP), capped
 * in pixels, re-encoded without metadata, stored as a display image and a thumbnail under
 * server-made names. A rejected or deleted photo's files are deleted.
 */
import crypto from "node:crypto";
import { ApiError, type FieldError } from "~/lib/api.server";
import { MB } from "~/lib/body-limits.server";
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { publishesQc, QC_PERMISSIONS, type Access } from "~/lib/permissions";
import { assertMay, type Actor } from "./permissions.server";
import { pagesChanged, staffWrite } from "./writes.server";
import { findProductById, findProductsByItemId, listProducts, skuNamesOf, type Page, type Product } from "~/models/product.server";
import {
  approvedPreviews,
  approvePending,
  countActiveUploads,
  lockUploaderOfProduct,
  countQcImages,
  deleteQcImageRow,
  findQcImage,
  insertQcImages,
  listPendingQcImages,
  latestApprovedQcDates,
  pendingCounts,
  qcImagesOfProduct,
  qcImagesOfUploader,
  rejectPending,
  uploadedHashes,
  uploaderStats,
  type NewQcImage,
  type QcImage,
  type QcImageWithProduct,
  type QcUploadStats,
} from "~/models/qc.server";
import type { User } from "~/models/user.server";
import { allowance, folderLookupOrder, QC_LIMITS, QC_MESSAGES as M, QC_REASON_MAX, type QcFilter } from "~/schemas/qc-rules";
import { limitQcUploads } from "./rate-limit.server";
import {
  acceptsFormat,
  findIssuedUpload,
  isUploadedFile,
  MAX_PIXELS,
  removeUpload,
  sentFileName,
  sniffImage,
  storeImageWithThumbnail,
  withMultipart,
  type StoredUpload,
  type UploadedFile,
} from "./uploads.server";

export type { QcImage, QcImageWithProduct, QcUploadStats };

/** The gallery thumbnail: about 20–40 KB for a photo, sharp on a phone at 2× density. */
const THUMBNAIL = { maxEdge: 400, quality: 70 } as const;

// ---------------------------------------------------------------- JSON

export function qcImageJson(image: QcImage | QcImageWithProduct) {
  return {
    id: image.id,
    product_id: image.productId,
    ...("productName" in image ? { product_name: image.productName } : {}),
    image_url: image.imageUrl,
    imageUrl: image.imageUrl,
    thumbnail_url: image.thumbUrl,
    width: image.width,
    height: image.height,
    thumbnail_width: image.thumbWidth,
    thumbnail_height: image.thumbHeight,
    status: image.status,
    set_key: image.setKey,
    uploaded_by_username: image.uploaderName,
    upload_date: image.createdAt,
    created_at: image.createdAt,
    reviewed_at: image.reviewedAt,
    review_reason: image.reviewReason,
    sku_name: image.skuName,
  };
}

export type QcImageJson = ReturnType<typeof qcImageJson>;

// ---------------------------------------------------------------- products

/** The product of a QC call: a missing or malformed id is 'Product ID missing…', an unknown one 404. */
export async function qcProduct(rawId: string | number | null | undefined): Promise<Product> {
  const text = String(rawId ?? "").trim();
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
    throw new ApiError(400, M.productIdMissing, "VALIDATION_ERROR", [{ field: "productId", message: M.productIdMissing }]);
  }
  const product = await findProductById(getDb(), Number(text));
  if (!product) throw new ApiError(404, M.productNotFound, "NOT_FOUND");
  return product;
}

/** A product by id for the QC screens (null when there is none). */
export async function productForQc(id: number): Promise<Product | null> {
  return (await findProductById(getDb(), id)) ?? null;
}

// ---------------------------------------------------------------- the gallery

export type QcSet = { key: string; date: string; images: QcImage[]; skuName: string | null };

/** The product's SKU a sent name is (its own spelling), or null: none sent, or not one of them. */
async function skuShown(productId: number, sent: unknown): Promise<string | null> {
  const name = typeof sent === "string" ? sent.trim().toLowerCase() : "";
  if (!name) return null;
  return (await skuNamesOf(getDb(), productId)).find((sku) => sku.trim().toLowerCase() === name) ?? null;
}

/** Approved photos in sets (the photos sent together), newest set first, each set in the order sent. */
export function groupIntoSets(images: QcImage[]): QcSet[] {
  const sets = new Map<string, QcSet>();
  for (const image of images) {
    let set = sets.get(image.setKey);
    if (!set) {
      set = { key: image.setKey, date: image.createdAt, images: [], skuName: image.skuName };
      sets.set(image.setKey, set);
    }
    set.images.push(image);
  }
  const list = [...sets.values()];
  for (const set of list) {
    set.images.sort((a, b) => a.id - b.id);
    set.date = set.images[0]?.createdAt ?? set.date;
  }
  const newest = (set: QcSet) =>
    set.images.reduce((latest, image) =>
      image.createdAt > latest.createdAt || (image.createdAt === latest.createdAt && image.id > latest.id) ? image : latest,
    );
  return list.sort((a, b) => {
    const x = newest(a);
    const y = newest(b);
    return y.createdAt === x.createdAt ? y.id - x.id : y.createdAt < x.createdAt ? -1 : 1;
  });
}

/** The approved photos of a product (what everyone sees), newest first. */
export async function approvedQcImages(productId: number): Promise<QcImage[]> {
  return qcImagesOfProduct(getDb(), productId, ["approved"]);
}

/** When each product's newest approved QC set was sent (the cards show it beside the count). */
export async function latestQcDates(productIds: number[]): Promise<Map<number, string>> {
  return latestApprovedQcDates(getDb(), productIds);
}

/** What the product page's upload box knows about the viewer. */
export type UploaderState = {
  /** staff whose photos are published at once (no allowance) */
  publishes: boolean;
  stats: QcUploadStats;
  /** photos counted against the allowance (pending and approved) */
  used: number;
  remaining: number | null;
  pending: QcImage[];
  rejected: QcImage[];
};

export async function uploaderState(productId: number, user: User, access: Access): Promise<UploaderState> {
  const db = getDb();
  const [stats, mine] = await Promise.all([uploaderStats(db, productId, user.id), qcImagesOfUploader(db, productId, user.id)]);
  const publishes = publishesQc(access);
  const used = stats.pendingUploads + stats.approvedUploads;
  return {
    publishes,
    stats,
    used,
    remaining: publishes ? null : allowance(used).remaining,
    pending: mine.filter((image) => image.status === "pending"),
    rejected: mine.filter((image) => image.status === "rejected"),
  };
}

export async function uploadStatus(productId: number, user: User, access: Access) {
  const state = await uploaderState(productId, user, access);
  return { ...state.stats, limit: state.publishes ? null : QC_LIMITS.perUserPerProduct, remaining: state.remaining };
}

// ---------------------------------------------------------------- uploads

/** QC upload bodies: 10 files of 10 MB plus the framing (app/lib/body-limits.server.ts). */
const QC_BODY_BYTES = QC_LIMITS.filesPerBatch * QC_LIMITS.fileBytes + MB;

export type QcUploadOutcome = {
  product: Product;
  uploaded: QcImage[];
  /** files refused one by one (name and message); the others were stored */
  errors: FieldError[];
  published: boolean;
};

type Candidate = { file: UploadedFile; name: string; hash: string };

/** SHA-256 (hex) of an uploaded file's bytes, as sent. */
async function fileHash(file: UploadedFile): Promise<string> {
  return crypto
    .createHash("sha256")
    .update(new Uint8Array(await file.arrayBuffer()))
    .digest("hex");
}

/** The files of the form that can be stored, and a message for each one that cannot. */
async function sortFiles(files: UploadedFile[]): Promise<{ valid: Candidate[]; errors: FieldError[] }> {
  const valid: Candidate[] = [];
  const errors: FieldError[] = [];
  for (const file of files) {
    const name = sentFileName(file);
    if (file.size > QC_LIMITS.fileBytes) {
      errors.push({ field: name, message: M.tooLarge(name) });
      continue;
    }
    const sniffed = file.size > 0 ? await sniffImage(file) : null;
    if (!sniffed || !acceptsFormat("qc", sniffed.format)) {
      errors.push({ field: name, message: M.invalidType(name) });
      continue;
    }
    if (sniffed.pixels > MAX_PIXELS) {
      errors.push({ field: name, message: M.tooManyPixels(name, MAX_PIXELS) });
      continue;
    }
    valid.push({ file, name, hash: await fileHash(file) });
  }
  return { valid, errors };
}

function refuse(message: string, errors: FieldError[] = [], status = 400): ApiError {
  return new ApiError(status, message, "VALIDATION_ERROR", [
    ...errors,
    ...(errors.some((e) => e.message === message) ? [] : [{ field: "photos", message }]),
  ]);
}

async function removeStored(stored: Array<{ image: StoredUpload; thumb: StoredUpload }>) {
  for (const { image, thumb } of stored) {
    await removeUpload(image).catch(() => {});
    await removeUpload(thumb).catch(() => {});
  }
}

/**
 * Reads a QC upload (multipart, the files in `field`) for a product and stores what it
 * can. A shopper's photos are pending and count against 10 per product (checked again
 * when they are recorded, so parallel uploads cannot pass it); staff who hold qc.upload
 * publish at once. Answers the photos stored and a message per file refused; refuses the
 * whole upload (400) when no file can be stored or the allowance is too small.
 */
export async function receiveQcUpload(
  request: Request,
  rawProductId: string | number | null | undefined,
  actor: { user: User; access: Access },
  options: { field: string; clientIp: string },
): Promise<QcUploadOutcome> {
  const product = await qcProduct(rawProductId);
  const published = publishesQc(actor.access);
  if (!published) await limitQcUploads(actor.user.id, options.clientIp);

  return withMultipart(
    request,
    {
      // each file is read whole (the body limit caps them all) so an oversize one gets its own message
      maxFileBytes: QC_BODY_BYTES,
      maxTotalBytes: QC_BODY_BYTES,
      maxFiles: QC_LIMITS.filesPerBatch,
      maxFields: 10,
      messages: { fileTooLarge: M.tooLarge("upload"), tooManyFiles: M.tooManyFiles },
      tooManyFilesStatus: 400,
    },
    async (form) => {
      // an empty file input sends no file part; a chosen empty file is refused by name below
      const files = form.getAll(options.field).filter((value): value is UploadedFile & FormDataEntryValue => isUploadedFile(value));
      if (files.length === 0) throw refuse(M.noValidFiles);
      // the option the photos show, when the uploader said (one of the product's SKUs, by
      // name): a name it does not have is refused before any file is stored
      const sentSku = form.get("skuName");
      const skuName = await skuShown(product.id, sentSku);
      if (!skuName && typeof sentSku === "string" && sentSku.trim()) {
        throw new ApiError(400, M.unknownSku, "VALIDATION_ERROR", [{ field: "skuName", message: M.unknownSku }]);
      }
      const sorted = await sortFiles(files);
      const { errors } = sorted;
      const db = getDb();
      // the same photo twice (in this upload, or already sent for this product) is refused by name
      const known = await uploadedHashes(
        db,
        product.id,
        actor.user.id,
        sorted.valid.map((candidate) => candidate.hash),
      );
      const valid = sorted.valid.filter((candidate) => {
        if (!known.has(candidate.hash)) {
          known.add(candidate.hash);
          return true;
        }
        errors.push({ field: candidate.name, message: M.duplicate(candidate.name) });
        return false;
      });
      if (valid.length === 0) throw refuse(M.noValidFiles, errors);

      if (!published) {
        const used = await countActiveUploads(db, product.id, actor.user.id);
        assertAllowance(used, valid.length, errors);
      }

      const stored: Array<{ image: StoredUpload; thumb: StoredUpload; name: string; hash: string }> = [];
      for (const candidate of valid) {
        try {
          const { image, thumb } = await storeImageWithThumbnail(
            candidate.file,
            "qc",
            actor.user.id,
            { notImage: M.invalidType(candidate.name), tooLarge: M.tooLarge(candidate.name) },
            QC_LIMITS.fileBytes,
            THUMBNAIL,
          );
          stored.push({ image, thumb, name: candidate.name, hash: candidate.hash });
        } catch (error) {
          if (!(error instanceof ApiError)) {
            await removeStored(stored);
            throw error;
          }
          errors.push({ field: candidate.name, message: error.message });
        }
      }
      if (stored.length === 0) throw refuse(M.noValidFiles, errors);

      const setKey = crypto.randomUUID();
      const rows: NewQcImage[] = stored.map(({ image, thumb, hash }) => ({
        productId: product.id,
        status: published ? "approved" : "pending",
        imageUrl: image.url,
        thumbUrl: thumb.url,
        width: image.width ?? 0,
        height: image.height ?? 0,
        thumbWidth: thumb.width ?? 0,
        thumbHeight: thumb.height ?? 0,
        bytes: image.bytes,
        setKey,
        uploadedBy: actor.user.id,
        reviewedBy: published ? actor.user.id : null,
        contentHash: hash,
        skuName,
      }));
      let ids: number[];
      let sentMeanwhile: Set<string> = new Set();
      try {
        // checked again where the photos are recorded, one upload of a person to a product
        // at a time, so two sent together cannot both pass the allowance, nor both record
        // the same photo
        ids = await db.transaction().execute(async (trx) => {
          await lockUploaderOfProduct(trx, product.id, actor.user.id);
          sentMeanwhile = await uploadedHashes(
            trx,
            product.id,
            actor.user.id,
            stored.map((upload) => upload.hash),
          );
          for (const upload of stored)
            if (sentMeanwhile.has(upload.hash)) errors.push({ field: upload.name, message: M.duplicate(upload.name) });
          const fresh = rows.filter((row) => !sentMeanwhile.has(row.contentHash ?? ""));
          if (fresh.length === 0) throw refuse(M.noValidFiles, errors);
          if (!published) assertAllowance(await countActiveUploads(trx, product.id, actor.user.id), fresh.length, errors);
          return insertQcImages(trx, fresh);
        });
      } catch (error) {
        await removeStored(stored);
        throw error;
      }
      await removeStored(stored.filter((upload) => sentMeanwhile.has(upload.hash)));
      if (published) pagesChanged(["shop"]);
      const uploaded = (await qcImagesOfProduct(db, product.id, ["pending", "approved"]))
        .filter((image) => ids.includes(image.id))
        .sort((a, b) => a.id - b.id);
      return { product, uploaded, errors, published };
    },
  );
}

function assertAllowance(used: number, wanted: number, errors: FieldError[]): void {
  const { remaining } = allowance(used);
  if (remaining === 0) throw refuse(M.limitReached, errors);
  if (wanted > remaining) throw refuse(M.onlyMore(remaining, used), errors);
}

// ---------------------------------------------------------------- review and deletion

async function removeFilesOf(image: Pick<QcImage, "imageUrl" | "thumbUrl" | "bytes">): Promise<void> {
  // a photo given by address (the product body's qc_images) owns no file
  if (image.bytes === 0) return;
  for (const url of [image.imageUrl, image.thumbUrl]) {
    const upload = await findIssuedUpload(url);
    if (upload) await removeUpload(upload);
  }
}

const imageNotFound = () => new ApiError(404, M.imageNotFound, "NOT_FOUND");
const alreadyProcessed = () => new ApiError(409, M.alreadyProcessed, "ALREADY_PROCESSED");

export type ReviewDecision = { status: "approved" | "rejected"; reason?: string | null };

/** The reason as stored (trimmed, or null); one over QC_REASON_MAX is refused, never cut. */
function reviewReason(reason: string | null | undefined): string | null {
  const text = reason?.trim() || null;
  if (text && text.length > QC_REASON_MAX)
    throw new ApiError(400, M.reasonTooLong, "VALIDATION_ERROR", [{ field: "reason", message: M.reasonTooLong }]);
  return text;
}

/**
 * Approves or rejects a pending photo (docs/product/admin.md 4): approved photos join the
 * gallery; a rejected photo's files are deleted (its row keeps the reason for its
 * sender). A photo no longer pending answers 409 'QC image already processed'.
 */
export const reviewQcImage = staffWrite(
  { requires: { anyOf: QC_PERMISSIONS.review }, stales: ["shop"], changedWhen: (image) => image.status === "approved" },
  async (id: number, decision: ReviewDecision, actor: Actor): Promise<QcImage> => {
    // approving and rejecting each have their permission besides the review's own
    assertMay(actor, { anyOf: decision.status === "approved" ? QC_PERMISSIONS.approve : QC_PERMISSIONS.reject });
    const reason = reviewReason(decision.reason);
    const db = getDb();
    const image = await findQcImage(db, id);
    if (!image) throw imageNotFound();
    if (image.status !== "pending") throw alreadyProcessed();
    if (decision.status === "approved") {
      if (!(await approvePending(db, id, actor.user.id, reason))) throw alreadyProcessed();
    } else {
      if (!(await rejectPending(db, id, actor.user.id, reason))) throw alreadyProcessed();
      await removeFilesOf(image).catch((error) => log.warn(`QC: files of rejected photo ${id} not removed: ${(error as Error).message}`));
    }
    return (await findQcImage(db, id))!;
  },
);

/** Reviews several photos, each on its own; answers how many were done and what failed. */
export const reviewQcImages = staffWrite(
  { requires: { anyOf: QC_PERMISSIONS.review }, stales: ["shop"], changedWhen: (outcome) => outcome.done > 0 },
  async (
    ids: number[],
    decision: ReviewDecision,
    actor: Actor,
  ): Promise<{ done: number; failed: Array<{ id: number; message: string }> }> => {
    // one reason for all: a bad one is refused before any photo is touched
    reviewReason(decision.reason);
    const failed: Array<{ id: number; message: string }> = [];
    let done = 0;
    for (const id of new Set(ids)) {
      try {
        await reviewQcImage(id, decision, actor);
        done += 1;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 403) throw error;
        failed.push({ id, message: error.message });
      }
    }
    return { done, failed };
  },
);

/** Deletes a photo and its files (qc.delete or qc.manage). */
export const deleteQcImage = staffWrite(
  { requires: { anyOf: QC_PERMISSIONS.delete }, stales: ["shop"], changedWhen: (image) => image.status === "approved" },
  async (id: number, _actor: Actor): Promise<QcImage> => {
    const db = getDb();
    const image = await findQcImage(db, id);
    if (!image) throw imageNotFound();
    await removeFilesOf(image);
    if (!(await deleteQcImageRow(db, id))) throw imageNotFound();
    return image;
  },
);

export const deleteQcImages = staffWrite(
  { requires: { anyOf: QC_PERMISSIONS.delete }, stales: ["shop"], changedWhen: (outcome) => outcome.done > 0 },
  async (ids: number[], actor: Actor): Promise<{ done: number; failed: Array<{ id: number; message: string }> }> => {
    const failed: Array<{ id: number; message: string }> = [];
    let done = 0;
    for (const id of new Set(ids)) {
      try {
        await deleteQcImage(id, actor);
        done += 1;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 403) throw error;
        failed.push({ id, message: error.message });
      }
    }
    return { done, failed };
  },
);

// ---------------------------------------------------------------- back-office lists

/** A product's photos for staff: pending and approved, newest first. */
export async function qcImagesForAdmin(productId: number): Promise<QcImage[]> {
  return qcImagesOfProduct(getDb(), productId, ["pending", "approved"]);
}

export async function pendingQueue(options: { page: number; limit: number }) {
  return listPendingQcImages(getDb(), options);
}

export async function qcTotals(): Promise<{ approved: number; pending: number }> {
  return countQcImages(getDb());
}

export type QcFolder = { product: Product; approved: number; pending: number; previews: QcImage[] };

const FILTERS: Record<QcFilter, { isExternal?: boolean; qc?: "with" | "without" }> = {
  all: {},
  withQC: { qc: "with" },
  withoutQC: { qc: "without" },
  local: { isExternal: false },
  external: { isExternal: true },
};

/** Products as QC folders (docs/product/admin.md 2, QC file manager): filter, search by id or name, paged. */
export async function qcFolders(options: {
  page: number;
  limit: number;
  searchTerm?: string;
  filterType: QcFilter;
}): Promise<Page<QcFolder>> {
  const db = getDb();
  const page = await listProducts(db, {
    page: options.page,
    limit: options.limit,
    nameContains: options.searchTerm,
    ...FILTERS[options.filterType],
  });
  const ids = page.items.map((product) => product.id);
  const [previews, pending] = await Promise.all([approvedPreviews(db, ids, QC_LIMITS.cardThumbnails), pendingCounts(db, ids)]);
  return {
    ...page,
    items: page.items.map((product) => ({
      product,
      approved: product.qcCount,
      pending: pending.get(product.id) ?? 0,
      previews: previews.get(product.id) ?? [],
    })),
  };
}

/**
 * 'New QC folder' (docs/product/admin.md 5): finds the product of an id. 10+ digits is tried as a
 * platform item id first, 1–9 digits as a database id first, each falling back to the
 * other. '请输入有效的数字ID' for anything else, '找不到指定的产品' when nothing matches.
 */
export async function findFolderProduct(raw: string): Promise<Product> {
  const parsed = folderLookupOrder(raw);
  if ("error" in parsed) throw new ApiError(400, parsed.error, "VALIDATION_ERROR", [{ field: "productId", message: parsed.error }]);
  const db = getDb();
  for (const way of parsed.order) {
    if (way === "itemId") {
      const [found] = await findProductsByItemId(db, parsed.value);
      if (found) return found;
    } else if (parsed.value.length <= 15) {
      const found = await findProductById(db, Number(parsed.value));
      if (found) return found;
    }
  }
  throw new ApiError(404, M.productNotFoundZh, "NOT_FOUND", [{ field: "productId", message: M.productNotFoundZh }]);
}
