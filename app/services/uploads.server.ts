/**
 * The one owner of uploaded files (in UPLOADS_DIR or the bucket: lib/upload-storage.server.ts).
 * - Reading: multipart bodies are streamed to a private temporary folder (never held in
 *   memory) with caps on file size, file count, part count and total bytes.
 * - Storing: images are decoded and re-encoded with sharp (checked by content, never by
 *   name or declared type; EXIF/GPS dropped), capped in pixels, written under server-made
 *   names and recorded in the uploads table with the user they were issued to.
 * - Accepting back: only URLs of recorded uploads are accepted from clients.
 * - Deleting: a file is deleted only on behalf of the user it was issued to.
 * - Serving: server/serve.ts answers /uploads/... from the storage; resolveUploadPath()
 *   maps a request to a file without leaving the folder.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { OutputInfo } from "sharp";
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { isUploadedFile, TMP_FOLDER, type UploadedFile } from "~/lib/multipart.server";
import { getUploadStorage, uploadKeyOf } from "~/lib/upload-storage.server";
import {
  deleteUploadRow,
  findUploadByPath,
  insertUpload,
  listUnreferencedProductUploads,
  listUnreferencedQcUploads,
  textsNamingUploads,
  listUnusedAvatarUploads,
  UPLOADS_URL_PREFIX,
  type StoredUpload,
  type UploadKind,
} from "~/models/upload.server";

export type { StoredUpload, UploadKind };

export const MAX_PIXELS = 40_000_000;

type Preset = { size?: number; maxEdge: number; quality: number; formats: readonly string[] };

const PRESETS: Record<UploadKind, Preset> = {
  avatars: { size: 256, maxEdge: 256, quality: 82, formats: ["jpeg", "png", "webp", "gif"] },
  products: { maxEdge: 1600, quality: 82, formats: ["jpeg", "png", "webp", "gif"] },
  // the display size of a QC photo; its gallery thumbnail is made alongside (qc.server.ts)
  qc: { maxEdge: 1600, quality: 80, formats: ["jpeg", "png", "webp"] },
  // featured images and pictures inside posts
  blog: { maxEdge: 1600, quality: 82, formats: ["jpeg", "png", "webp", "gif"] },
};

/** The names this server makes: <kind>/<yyyy-mm>/<uuid>.webp. */
const ISSUED_PATH = /^(avatars|products|qc|blog)\/\d{4}-\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

// ---------------------------------------------------------------- serving

// the path rules live with the storage (plumbing); the name stays here for its callers
export { resolveUploadPath } from "~/lib/upload-storage.server";

// ---------------------------------------------------------------- reading multipart bodies

// the reader itself is plumbing (one module touches Remix's multipart API); uploads are
// its callers' way in
export {
  isUploadedFile,
  sentFileName,
  uploadedBytes,
  withMultipart,
  type MultipartLimits,
  type UploadedFile,
} from "~/lib/multipart.server";

// ---------------------------------------------------------------- storing images

function monthFolder(): string {
  return new Date().toISOString().slice(0, 7);
}

type Encoded = { data: Buffer; info: OutputInfo };

/** sharp (libvips: about 19 MB of memory) is loaded with the first image, not with the server (issue 37). */
let sharpModule: Promise<typeof import("sharp")> | undefined;
export const loadSharp = async () => (await (sharpModule ??= import("sharp"))).default;

/**
 * What an uploaded file is, read from its bytes (the header only; nothing is decoded):
 * its image format and size, or null when it is not an image sharp can read.
 */
export async function sniffImage(file: UploadedFile): Promise<{ format: string; pixels: number } | null> {
  try {
    const sharp = await loadSharp();
    const { format, width, height } = await sharp(file.getFilePath()).metadata();
    if (!format || !width || !height) return null;
    return { format, pixels: width * height };
  } catch {
    return null;
  }
}

/** Whether an image format (as sniffImage() names it) is stored for this kind. */
export function acceptsFormat(kind: UploadKind, format: string): boolean {
  return PRESETS[kind].formats.includes(format);
}

/** A smaller copy stored beside an image (QC gallery thumbnails). */
export type ThumbnailSpec = { maxEdge: number; quality: number };

/**
 * Decodes an image once and re-encodes it (WebP) at the kind's size, plus a thumbnail when
 * asked. Anything that is not an image of the kind's formats (by its bytes), or larger
 * than MAX_PIXELS, throws.
 */
async function encodeImage(
  input: string | Buffer,
  kind: UploadKind,
  thumbnail?: ThumbnailSpec,
): Promise<{ main: Encoded; thumb?: Encoded }> {
  const preset = PRESETS[kind];
  // limitInputPixels is checked from the header, before decoding: a decompression bomb
  // (a small file declaring a huge image) is refused without allocating its pixels
  const sharp = await loadSharp();
  const source = sharp(input, { limitInputPixels: MAX_PIXELS, failOn: "error" });
  const { format } = await source.metadata();
  if (!format || !preset.formats.includes(format)) throw new Error(`format ${format} not accepted`);
  // rotate() applies the EXIF orientation; WebP output carries no EXIF, GPS or other metadata
  const image = source.rotate();
  const resized = preset.size
    ? image.clone().resize(preset.size, preset.size, { fit: "cover", position: "attention" })
    : image.clone().resize(preset.maxEdge, preset.maxEdge, { fit: "inside", withoutEnlargement: true });
  const main = await resized.webp({ quality: preset.quality }).toBuffer({ resolveWithObject: true });
  if (!thumbnail) return { main };
  const thumb = await image
    .clone()
    .resize(thumbnail.maxEdge, thumbnail.maxEdge, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: thumbnail.quality })
    .toBuffer({ resolveWithObject: true });
  return { main, thumb };
}

/** Writes an encoded image under a server-made name and records it, issued to `ownerId`. */
async function writeUpload(encoded: Encoded, kind: UploadKind, ownerId: number | null): Promise<StoredUpload> {
  const relative = `${kind}/${monthFolder()}/${crypto.randomUUID()}.webp`;
  const storage = getUploadStorage();
  await storage.put(relative, encoded.data, "image/webp");
  try {
    return await insertUpload(getDb(), {
      path: relative,
      kind,
      ownerId,
      bytes: encoded.data.length,
      width: encoded.info.width,
      height: encoded.info.height,
    });
  } catch (error) {
    // a file nothing records would never be swept: it goes, and the recording's error is the one told
    await storage
      .remove(relative)
      .catch((removeError: Error) => log.warn(`removing the unrecorded upload ${relative} failed: ${removeError.message}`));
    throw error;
  }
}

async function readInput(
  file: UploadedFile | Blob,
  messages: { notImage: string; tooLarge: string },
  maxBytes: number,
): Promise<string | Buffer> {
  if (file.size > maxBytes) throw new ApiError(413, messages.tooLarge, "PAYLOAD_TOO_LARGE");
  if (file.size === 0) throw new ApiError(400, messages.notImage, "VALIDATION_ERROR");
  return isUploadedFile(file) ? file.getFilePath() : Buffer.from(await file.arrayBuffer());
}

/**
 * Decodes, re-encodes (WebP) and stores an image issued to `ownerId`; returns the
 * recorded upload. A file that is not an image of the kind's formats answers 400 with
 * `messages.notImage`, one over `maxBytes` 413 with `messages.tooLarge`.
 */
export async function storeImage(
  file: UploadedFile | Blob,
  kind: UploadKind,
  ownerId: number | null,
  messages: { notImage: string; tooLarge: string },
  maxBytes: number,
): Promise<StoredUpload> {
  const input = await readInput(file, messages, maxBytes);
  let encoded: Encoded;
  try {
    encoded = (await encodeImage(input, kind)).main;
  } catch {
    throw new ApiError(400, messages.notImage, "VALIDATION_ERROR");
  }
  return writeUpload(encoded, kind, ownerId);
}

/** storeImage() plus a thumbnail made from the same decoding; both issued to `ownerId`. */
export async function storeImageWithThumbnail(
  file: UploadedFile | Blob,
  kind: UploadKind,
  ownerId: number | null,
  messages: { notImage: string; tooLarge: string },
  maxBytes: number,
  thumbnail: ThumbnailSpec,
): Promise<{ image: StoredUpload; thumb: StoredUpload }> {
  const input = await readInput(file, messages, maxBytes);
  let encoded: { main: Encoded; thumb?: Encoded };
  try {
    encoded = await encodeImage(input, kind, thumbnail);
  } catch {
    throw new ApiError(400, messages.notImage, "VALIDATION_ERROR");
  }
  const image = await writeUpload(encoded.main, kind, ownerId);
  try {
    return { image, thumb: await writeUpload(encoded.thumb!, kind, ownerId) };
  } catch (error) {
    await removeUpload(image);
    throw error;
  }
}

// ---------------------------------------------------------------- accepting URLs back

/** The stored path of a URL this server could have issued (/uploads/<kind>/...), or null. */
export function issuedPathOf(url: string | null | undefined): string | null {
  if (!url?.startsWith(UPLOADS_URL_PREFIX)) return null;
  const relative = url.slice(UPLOADS_URL_PREFIX.length);
  return ISSUED_PATH.test(relative) ? relative : null;
}

/** The recorded upload behind a URL, or null for anything the server did not issue. */
export async function findIssuedUpload(url: string | null | undefined): Promise<StoredUpload | null> {
  const relative = issuedPathOf(url);
  if (!relative) return null;
  return (await findUploadByPath(getDb(), relative)) ?? null;
}

// ---------------------------------------------------------------- deleting

/** Deletes an upload's file and its record. */
export async function removeUpload(upload: StoredUpload): Promise<void> {
  // a recorded path that is no safe key names no file (the record still goes)
  const key = uploadKeyOf(upload.path);
  if (key) await getUploadStorage().remove(key);
  await deleteUploadRow(getDb(), upload.id);
}

/**
 * Deletes the upload behind `url` when it was issued to `ownerId`; anything else (another
 * user's file, a folder, a path the server never issued, an outside URL) is left alone.
 */
export async function removeUploadOwnedBy(url: string | null | undefined, ownerId: number): Promise<boolean> {
  const upload = await findIssuedUpload(url);
  if (!upload || upload.ownerId !== ownerId) return false;
  await removeUpload(upload);
  return true;
}

// ---------------------------------------------------------------- housekeeping

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

/**
 * Removes avatar uploads nobody shows after an hour (uploaded through the API and never
 * set, or left behind by a crash: they are public until then), QC files no QC photo shows
 * after a day, and temporary upload folders older than an hour. Runs hourly.
 */
export async function sweepUploads(now = Date.now()): Promise<{ avatars: number; qc: number; products: number; tmp: number }> {
  const dayAgo = new Date(now - DAY_MS).toISOString();
  const avatars = await listUnusedAvatarUploads(getDb(), new Date(now - HOUR_MS).toISOString());
  const qc = await listUnreferencedQcUploads(getDb(), dayAgo);
  const products = await unusedProductUploads(dayAgo);
  for (const upload of [...avatars, ...qc, ...products]) await removeUpload(upload);
  let tmp = 0;
  const tmpRoot = path.join(getEnv().DATA_DIR, TMP_FOLDER);
  const entries = await fs.readdir(tmpRoot, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(tmpRoot, entry.name);
    const stat = await fs.stat(full).catch(() => null);
    if (stat && now - stat.mtimeMs > HOUR_MS) {
      await fs.rm(full, { recursive: true, force: true });
      tmp += 1;
    }
  }
  if (avatars.length || qc.length || products.length || tmp) {
    log.info(
      `uploads housekeeping: ${avatars.length} unused avatars, ${qc.length} QC files no photo shows, ${products.length} product images nothing shows, ${tmp} temporary folders removed`,
    );
  }
  return { avatars: avatars.length, qc: qc.length, products: products.length, tmp };
}

/**
 * Product images older than a day that no product or SKU shows and no stored text names
 * (the product form uploads on "Add SKU" and on a failed save; an image removed from a
 * product stays a day, long enough to put it back).
 */
async function unusedProductUploads(before: string): Promise<StoredUpload[]> {
  const candidates = await listUnreferencedProductUploads(getDb(), before);
  if (!candidates.length) return [];
  const texts = await textsNamingUploads(getDb(), "products");
  return candidates.filter((upload) => !texts.some((text) => text.includes(upload.url)));
}
