/**
 * Search by photo and "the same item elsewhere" (issue 38, docs/decisions/047-photo-index.md).
 *
 * - Every product picture (its images, its approved QC photos) gets a fingerprint
 *   (fingerprint.server.ts), stored in photo_fingerprints by the `photos.sync` job: it walks
 *   what changed since its last run (products by updated_at, QC photos approved) and, on its
 *   first run, everything there is (the backfill: resumable, its place kept in the job's
 *   payload, its progress in fingerprintProgress()). Any catalogue write brings it forward.
 * - Searches read the in-memory index (photo-index.server.ts), which follows the table.
 * - A shopper's photo is checked like every upload (type by content, pixels, bytes), read,
 *   and thrown away: nothing of it is stored.
 */
import fs from "node:fs/promises";
import type { Readable } from "node:stream";
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { isForeignKeyViolation } from "~/lib/db-errors.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { uploadKeyOf, getUploadStorage } from "~/lib/upload-storage.server";
import { fetchPicture } from "~/marketplace/fetch.server";
import {
  decisionsOf,
  deleteFingerprints,
  detailsOf,
  fingerprintProgressBetween,
  type FingerprintProgress,
  fingerprintsOfProduct,
  insertFingerprints,
  picturesOfProduct,
  productsChangedAfter,
  pruneRemovals,
  newestProductChange,
  qcApprovedAfter,
  productsUnreadableBefore,
  readableHashesOfUrl,
  checksOf,
  productsUnchecked,
  type NewFingerprint,
} from "~/models/photo.server";
import { listJobs } from "~/models/job.server";
import { lastProductId } from "~/models/product.server";
import { runPeriodicJobNow, type JobDefinition } from "~/services/jobs.server";
import { afterShopChanges, pagesChanged } from "~/services/writes.server";
import {
  CANDIDATE_DISTANCE,
  checkedMatch,
  PHOTO_CHECK_MAX,
  PHOTO_MATCH_MAX_DISTANCE,
  checksOfHex,
  detailDistance,
  hexOfChecks,
  SAME_PICTURE_MAX_DETAIL,
  SAME_PICTURE_MAX_DISTANCE,
  storedQuery,
  type PhotoQuery,
} from "./fingerprint.server";
import { fingerprintPictureOffThread, photoQueryOffThread } from "./photo-thread.server";
import { hashesOfHex, hexOfHashes, photoIndex, REMOVALS_KEPT_MS, type PictureMatch } from "./photo-index.server";

/** A picture is read up to this size (the upload limit of shoppers' photos). */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Pictures fingerprinted a product: its first images and QC photos (the rest add little). */
const MAX_IMAGES = 12;
const MAX_QC = 24;
/** Products looked at in one run of the sync (the job runs again at once while more wait). */
const SYNC_BATCH = 25;
/** A picture that could not be read (its host down, a 404) is tried again after this long. */
export const UNREADABLE_RETRY_MS = 7 * 24 * 60 * 60_000;
/** Products shown for a photo. */
export const PHOTO_RESULTS = 24;
/** Results whose check is more than this many bits (of 256) worse than the best one's are left out (productsNear). */
const RESULTS_SPREAD = 24;
/** Candidates a search checks: the closest pictures by their hashes. */
const CANDIDATES = 400;
/** Other listings shown as the same item. */
export const SAME_ITEM_MAX = 12;

/** The score of a distance: 1 for the same picture, falling with each differing bit. */
export const scoreOf = (distance: number) => Math.round((1 - distance / 64) * 1000) / 1000;
/**
 * A search result's score, from its check: 1 for the same picture, and a match at the
 * check's limit scores what one at the hashes' limit did before checks (0.8125), so scores
 * keep their meaning for the /api's callers.
 */
const scoreOfCheck = (check: number) => scoreOf((check / PHOTO_CHECK_MAX) * PHOTO_MATCH_MAX_DISTANCE);

// ---------------------------------------------------------------- reading a picture

async function readStream(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new Error(`larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The storage key of a picture this server keeps (/uploads/…, or under PUBLIC_URL or UPLOADS_PUBLIC_URL), or null. */
export function uploadKeyOfUrl(url: string): string | null {
  const env = getEnv();
  for (const base of [env.UPLOADS_PUBLIC_URL, `${env.PUBLIC_URL}/uploads`]) {
    if (base && url.startsWith(`${base.replace(/\/+$/, "")}/`)) return uploadKeyOf(url.slice(base.replace(/\/+$/, "").length + 1));
  }
  if (url.startsWith("/uploads/")) return uploadKeyOf(url.slice("/uploads/".length));
  return null;
}

/** A product picture's bytes: from the uploads when it is one, else fetched from its public address. */
async function readPicture(url: string): Promise<Buffer> {
  const key = uploadKeyOfUrl(url);
  if (key !== null) {
    const stored = await getUploadStorage().get(key);
    if (!stored) throw new Error("no such upload");
    return readStream(stored.body, PHOTO_MAX_BYTES);
  }
  if (!/^https?:\/\//i.test(url)) throw new Error("not a picture address");
  return fetchPicture(url, PHOTO_MAX_BYTES);
}

// ---------------------------------------------------------------- keeping fingerprints

/**
 * Brings a product's fingerprints in line with its pictures: those of pictures it no
 * longer has go, the new ones are read and fingerprinted (an unreadable one is recorded
 * with its error, tried again after UNREADABLE_RETRY_MS). Old rows go and new ones come in
 * one transaction. Answers what changed: any row, and whether a readable one came or went
 * (only that changes what a page or a search shows).
 */
export async function syncProductPhotos(
  productId: number,
  options: { signal?: AbortSignal; retryUnreadableBefore?: string } = {},
): Promise<{ changed: boolean; searchable: boolean }> {
  const { signal, retryUnreadableBefore = "" } = options;
  const db = getDb();
  const pictures = await picturesOfProduct(db, productId);
  const existing = await fingerprintsOfProduct(db, productId);
  if (!pictures) return { changed: false, searchable: false };
  const wanted = new Map<string, number | null>();
  for (const url of pictures.images.slice(0, MAX_IMAGES)) wanted.set(url, null);
  for (const qc of pictures.qc.slice(0, MAX_QC)) if (!wanted.has(qc.url)) wanted.set(qc.url, qc.id);
  // gone from the product, moved between its images and QC photos, unreadable long enough
  // to try again, or made before checks (decision 050: read again, a row is never changed)
  const stale = existing.filter(
    (row) =>
      !wanted.has(row.imageUrl) ||
      wanted.get(row.imageUrl) !== row.qcImageId ||
      (row.hashes === null && (row.createdAt ?? "") < retryUnreadableBefore) ||
      (row.hashes !== null && !row.checks),
  );
  const kept = new Set(existing.filter((row) => !stale.includes(row)).map((row) => row.imageUrl));
  const added: NewFingerprint[] = [];
  for (const [url, qcImageId] of wanted) {
    if (kept.has(url) || signal?.aborted) continue;
    try {
      const began = performance.now();
      const picture = await fingerprintPictureOffThread(await readPicture(url));
      // half the time to the pages: a backfill of a large catalogue takes twice as long, and
      // the pages it runs beside stay near their idle speed (docs/performance.md)
      await new Promise((resolve) => setTimeout(resolve, performance.now() - began));
      added.push({
        productId,
        qcImageId,
        imageUrl: url,
        hashes: hexOfHashes(picture.hashes),
        checks: hexOfChecks(picture.checks),
        detail: picture.detail,
        error: null,
      });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      added.push({ productId, qcImageId, imageUrl: url, hashes: null, checks: null, detail: null, error: message });
    }
  }
  if (!stale.length && !added.length) return { changed: false, searchable: false };
  try {
    await db.transaction().execute(async (trx) => {
      await deleteFingerprints(
        trx,
        stale.map((row) => row.id),
      );
      await insertFingerprints(trx, added);
    });
  } catch (error) {
    // the product (or a QC photo) was deleted while its pictures were read: nothing to keep
    if (isForeignKeyViolation(error)) return { changed: false, searchable: false };
    throw error;
  }
  // what a page or a search shows changes when a readable picture comes or goes; one read
  // again for its checks was readable before and after
  const readable = (rows: Array<{ imageUrl: string; hashes: string | null }>) =>
    new Set(rows.filter((row) => row.hashes !== null).map((row) => row.imageUrl));
  const before = readable(existing);
  const after = readable([...existing.filter((row) => !stale.includes(row)), ...added]);
  return { changed: true, searchable: before.size !== after.size || [...after].some((url) => !before.has(url)) };
}

/** Where the sync is: the last product and QC photo it looked at. */
type SyncPlace = { productAt: string; productId: number; qcId: number; reviewedAt: string; reviewedId: number };
const START: SyncPlace = { productAt: "", productId: 0, qcId: 0, reviewedAt: "", reviewedId: 0 };

function placeOf(payload: unknown): SyncPlace {
  if (typeof payload !== "object" || payload === null) return START;
  const place = { ...START, ...(payload as Partial<SyncPlace>) };
  return typeof place.productAt === "string" && Number.isFinite(place.productId) ? place : START;
}

/**
 * One run: up to SYNC_BATCH changed products and their approved QC photos; answers the new
 * place, whether more wait, and whether what searches find changed.
 */
export async function syncPhotosOnce(
  place: SyncPlace,
  signal?: AbortSignal,
): Promise<{ place: SyncPlace; more: boolean; changed: boolean }> {
  const db = getDb();
  const products = await productsChangedAfter(db, { at: place.productAt, id: place.productId }, SYNC_BATCH);
  const qc = await qcApprovedAfter(db, { id: place.qcId, reviewedAt: place.reviewedAt, reviewedId: place.reviewedId }, SYNC_BATCH);
  const next = { ...place };
  const todo = new Set<number>();
  for (const product of products) {
    todo.add(product.id);
    next.productAt = product.updatedAt;
    next.productId = product.id;
  }
  for (const photo of qc.inserted) {
    todo.add(photo.productId);
    next.qcId = photo.id;
  }
  for (const photo of qc.reviewed) {
    todo.add(photo.productId);
    next.reviewedAt = photo.reviewedAt;
    next.reviewedId = photo.id;
  }
  const retryBefore = new Date(Date.now() - UNREADABLE_RETRY_MS).toISOString();
  const retried = await productsUnreadableBefore(db, retryBefore, SYNC_BATCH);
  for (const productId of retried) todo.add(productId);
  const unchecked = await productsUnchecked(db, SYNC_BATCH);
  for (const productId of unchecked) todo.add(productId);
  let changed = false;
  for (const productId of todo) {
    if (signal?.aborted) return { place, more: true, changed };
    if ((await syncProductPhotos(productId, { signal, retryUnreadableBefore: retryBefore })).searchable) changed = true;
  }
  let more =
    products.length === SYNC_BATCH ||
    qc.inserted.length === SYNC_BATCH ||
    qc.reviewed.length === SYNC_BATCH ||
    retried.length === SYNC_BATCH ||
    unchecked.length > 0;
  // a write made while this batch was read (its nudge found the job running) is not left for the next period
  if (!more) {
    const [product] = await productsChangedAfter(db, { at: next.productAt, id: next.productId }, 1);
    const qcLeft = await qcApprovedAfter(db, { id: next.qcId, reviewedAt: next.reviewedAt, reviewedId: next.reviewedId }, 1);
    more = Boolean(product) || qcLeft.inserted.length > 0 || qcLeft.reviewed.length > 0;
  }
  return { place: next, more, changed };
}

const SYNC_EVERY_MS = 30_000;
/** Writes closer together than this bring the sync forward once. */
const NUDGE_MS = 50;
let nudge: NodeJS.Timeout | null = null;

/** Brings the sync forward after a catalogue write (at most once every NUDGE_MS). */
function nudgePhotoSync(): void {
  if (nudge || !globalThis.__jobRunner) return;
  nudge = setTimeout(() => {
    nudge = null;
    runPeriodicJobNow(photoSyncJob.name).catch((error: Error) => log.warn(`photos: bringing the sync forward failed: ${error.message}`));
  }, NUDGE_MS);
  nudge.unref();
}
afterShopChanges(nudgePhotoSync);

/** Writes younger than this are waited for by a photo search (photoSyncSettled); older ones are a backfill's. */
const FRESH_WRITE_MS = 10_000;

/**
 * Waits (at most `maxMs`) until the sync has taken in the products written a moment ago
 * (on this instance or another), so that a photo search right after a product is stored
 * finds it. A backfill of older products is not waited for.
 */
export async function photoSyncSettled(maxMs = 3_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    if (!nudge) {
      const [job] = await listJobs(getDb(), { key: `every:${photoSyncJob.name}` });
      if (!job || !globalThis.__jobRunner) return;
      const place = placeOf(job.payload);
      const newest = await newestProductChange(getDb());
      const taken = !newest || newest.at < place.productAt || (newest.at === place.productAt && newest.id <= place.productId);
      if (taken || Date.parse(newest.at) < Date.now() - FRESH_WRITE_MS) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The job that keeps fingerprints: periodic, and brought forward by catalogue writes
 * (nudgePhotoSync). While products wait it runs again at once, SYNC_BATCH at a time, so a
 * backfill of a large catalogue yields to other jobs and to requests between batches.
 */
export const photoSyncJob: JobDefinition = {
  name: "photos.sync",
  every: SYNC_EVERY_MS,
  runAtStart: true,
  run: async (payload, { signal }) => {
    let place = placeOf(payload);
    let changed = false;
    const deadline = Date.now() + 5_000;
    let more = true;
    while (more && Date.now() < deadline && !signal.aborted) {
      const step = await syncPhotosOnce(place, signal);
      place = step.place;
      more = step.more;
      changed ||= step.changed;
    }
    // only readable fingerprints change what pages show ("the same item elsewhere"): a
    // catalogue whose pictures cannot be read keeps its stored pages
    if (changed) {
      await photoIndex().follow();
      pagesChanged(["shop"]);
    }
    await pruneRemovals(getDb(), new Date(Date.now() - REMOVALS_KEPT_MS).toISOString());
    return { runAgainAt: more ? Date.now() : Date.now() + SYNC_EVERY_MS, payload: place };
  },
};

// ---------------------------------------------------------------- searching

export type PhotoSearchItem = { productId: number; score: number; distance: number; imageUrl: string; qcImageId: number | null };

/**
 * Products whose pictures match the query, best first, one entry a product (its best
 * picture): the index's closest pictures by their hashes are the candidates, and each is
 * checked in detail (checkedMatch, decision 050), so a picture that merely lies near by
 * luck, more of them as the catalogue grows, is not answered.
 */
async function productsNear(query: PhotoQuery, options: { skipProduct?: number; limit: number }): Promise<PhotoSearchItem[]> {
  const followed = photoIndex();
  await followed.follow();
  const candidates = followed.index.nearest(query.hashes, CANDIDATE_DISTANCE, CANDIDATES, options.skipProduct);
  const checks = await checksOf(
    getDb(),
    candidates.map((candidate) => candidate.fingerprintId),
  );
  const matches: Array<PictureMatch & { check: number }> = [];
  for (const candidate of candidates) {
    const stored = followed.index.hashesOf(candidate.fingerprintId);
    const match = stored && checkedMatch(query, stored, checksOfHex(checks.get(candidate.fingerprintId)));
    if (match) matches.push({ ...candidate, ...match });
  }
  matches.sort((a, b) => a.check - b.check || a.distance - b.distance || a.fingerprintId - b.fingerprintId);
  // only what is about as good as the best: the others that pass are shown only when
  // nothing better does
  const within = (matches[0]?.check ?? 0) + RESULTS_SPREAD;
  const best = new Map<number, (typeof matches)[number]>();
  for (const match of matches) if (match.check <= within && !best.has(match.productId)) best.set(match.productId, match);
  return [...best.values()].slice(0, options.limit).map((match) => ({
    productId: match.productId,
    score: scoreOfCheck(match.check),
    distance: match.distance,
    imageUrl: match.imageUrl,
    qcImageId: match.qcImageId,
  }));
}

/** A shopper's photo as a query; a file that is no picture answers 400. */
export async function queryOfUpload(input: Buffer | string, messages: { notImage: string }): Promise<PhotoQuery> {
  try {
    return await photoQueryOffThread(typeof input === "string" ? await fs.readFile(input) : input);
  } catch {
    throw new ApiError(400, messages.notImage, "VALIDATION_ERROR", [{ field: "image", message: messages.notImage }]);
  }
}

/** Products matching a shopper's photo (queryOfUpload). */
export function searchByPhoto(query: PhotoQuery): Promise<PhotoSearchItem[]> {
  return productsNear(query, { limit: PHOTO_RESULTS });
}

/**
 * Products near one of the catalogue's own pictures ("find similar" on a product image or
 * QC photo), the picture's own product first. Null when that picture has no fingerprint (yet).
 */
export async function searchFromPicture(imageUrl: string): Promise<PhotoSearchItem[] | null> {
  const stored = await readableHashesOfUrl(getDb(), imageUrl);
  return stored ? productsNear(storedQuery(hashesOfHex(stored.hashes), checksOfHex(stored.checks)), { limit: PHOTO_RESULTS }) : null;
}

/**
 * Other listings of the same item: products with a product image that is the same
 * photograph as one of this product's images (its content, whole and centre views within
 * SAME_PICTURE_MAX_DISTANCE, and their detail hashes within SAME_PICTURE_MAX_DETAIL: the
 * broad layout alone matches every "bright shape in the middle"), plus those staff linked, without those staff
 * dismissed. Product ids with their scores (a linked one without a match scores 1).
 */
export async function sameItemOf(
  productId: number,
  options: { includeDismissed?: boolean } = {},
): Promise<Array<{ productId: number; score: number }>> {
  const db = getDb();
  // product images only: QC photos of different items share a warehouse's background, its
  // ruler and its light, and would make unrelated listings "the same"
  const own = (await fingerprintsOfProduct(db, productId)).filter(
    (picture) => picture.hashes && picture.detail && picture.qcImageId === null,
  );
  const followed = photoIndex();
  if (own.length) await followed.follow();
  const pairs = own.flatMap((picture) =>
    followed.index
      .nearest(hashesOfHex(picture.hashes!).slice(0, 3), SAME_PICTURE_MAX_DISTANCE, 200, productId)
      .filter((match) => match.qcImageId === null)
      .map((match) => ({ match, detail: picture.detail! })),
  );
  const details = await detailsOf(
    db,
    pairs.map((pair) => pair.match.fingerprintId),
  );
  const found = new Map<number, number>();
  for (const { match, detail } of pairs) {
    const other = details.get(match.fingerprintId);
    if (!other || detailDistance(detail, other) > SAME_PICTURE_MAX_DETAIL) continue;
    found.set(match.productId, Math.max(found.get(match.productId) ?? 0, scoreOf(match.distance)));
  }
  for (const decision of await decisionsOf(db, productId)) {
    if (decision.decision === "dismissed") {
      if (!options.includeDismissed) found.delete(decision.otherProductId);
    } else found.set(decision.otherProductId, Math.max(found.get(decision.otherProductId) ?? 0, 1));
  }
  return [...found].map(([id, score]) => ({ productId: id, score }));
}

/** Product ids counted by one statement of the progress: 2–3 ms each (10,000 took up to 21 ms idle, 62 under load, at 500,000 pictures). */
export const PROGRESS_SLICE = 2_000;
/** A progress counted this recently is answered again (the back office and scripts poll it). */
const PROGRESS_KEPT_MS = 1_000;
let progressKept: { at: number; progress: Promise<FingerprintProgress> } | null = null;

/**
 * How far the fingerprints have come (the backfill's progress): counted a slice of product
 * ids at a time, letting other requests in between the slices, at most once a second (callers
 * at the same moment share one counting).
 */
export function fingerprintProgress(slice = PROGRESS_SLICE): Promise<FingerprintProgress> {
  if (progressKept && Date.now() - progressKept.at < PROGRESS_KEPT_MS && slice === PROGRESS_SLICE) return progressKept.progress;
  const progress = (async () => {
    const db = getDb();
    const total: FingerprintProgress = { products: 0, done: 0, pictures: 0, unreadable: 0 };
    const last = await lastProductId(db);
    for (let from = 0; from <= last; from += slice) {
      const part = await fingerprintProgressBetween(db, from, from + slice);
      total.products += part.products;
      total.done += part.done;
      total.pictures += part.pictures;
      total.unreadable += part.unreadable;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  })();
  if (slice === PROGRESS_SLICE) {
    progressKept = { at: Date.now(), progress };
    progress.catch(() => (progressKept = null));
  }
  return progress;
}

/** How far the fingerprints have come (the backfill's progress), and what this instance's index holds. */
export async function photoIndexProgress(): Promise<FingerprintProgress & { indexed: number }> {
  const followed = photoIndex();
  await followed.follow();
  return { ...(await fingerprintProgress()), indexed: followed.index.size };
}
