/**
 * The shared uploads service: images are decoded and re-encoded with sharp (checked by
 * content, never by name or declared type; EXIF/GPS dropped), capped in bytes and
 * pixels, and stored under server-made names in UPLOADS_DIR.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  MaxPartSizeExceededError,
} from "@remix-run/node";
import sharp, { type OutputInfo } from "sharp";
import { ApiError } from "~/lib/api.server";
import { getEnv } from "~/lib/env.server";

export const MAX_PIXELS = 40_000_000;

export type ImageKind = "avatars" | "products" | "qc";

const PRESETS: Record<ImageKind, { size?: number; maxEdge: number; quality: number }> = {
  avatars: { size: 256, maxEdge: 256, quality: 82 },
  products: { maxEdge: 1600, quality: 82 },
  qc: { maxEdge: 2000, quality: 82 },
};

/**
 * Reads a multipart body with every file part kept in memory up to `maxBytes`; a bigger
 * part answers 413 with `tooLargeMessage`.
 */
export async function readMultipart(request: Request, maxBytes: number, tooLargeMessage: string): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.includes("multipart/form-data")) {
    throw new ApiError(400, "Expected a multipart/form-data upload", "VALIDATION_ERROR");
  }
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(unstable_createMemoryUploadHandler({ maxPartSize: maxBytes })),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new ApiError(413, tooLargeMessage, "PAYLOAD_TOO_LARGE");
    throw new ApiError(400, "The upload could not be read", "VALIDATION_ERROR");
  }
}

/** Decodes, re-encodes (WebP) and stores an image; returns its public URL path. */
export async function saveImage(
  file: Blob,
  kind: ImageKind,
  messages: { notImage: string; tooLarge: string },
  maxBytes: number,
): Promise<{ url: string; width: number; height: number }> {
  if (file.size > maxBytes) throw new ApiError(413, messages.tooLarge, "PAYLOAD_TOO_LARGE");
  if (file.size === 0) throw new ApiError(400, messages.notImage, "VALIDATION_ERROR");
  const input = Buffer.from(await file.arrayBuffer());
  const preset = PRESETS[kind];
  let output: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(input, { limitInputPixels: MAX_PIXELS, failOn: "error" }).rotate();
    const resized = preset.size
      ? image.resize(preset.size, preset.size, { fit: "cover", position: "attention" })
      : image.resize(preset.maxEdge, preset.maxEdge, { fit: "inside", withoutEnlargement: true });
    output = await resized.webp({ quality: preset.quality }).toBuffer({ resolveWithObject: true });
  } catch {
    throw new ApiError(400, messages.notImage, "VALIDATION_ERROR");
  }
  const day = new Date().toISOString().slice(0, 7);
  const name = `${crypto.randomUUID()}.webp`;
  const dir = path.join(getEnv().UPLOADS_DIR, kind, day);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), output.data);
  return { url: `/uploads/${kind}/${day}/${name}`, width: output.info.width, height: output.info.height };
}

/** Removes a stored upload given its URL path; ignores anything outside UPLOADS_DIR. */
export async function deleteUpload(url: string | null | undefined): Promise<void> {
  if (!url?.startsWith("/uploads/")) return;
  const root = path.resolve(getEnv().UPLOADS_DIR);
  const file = path.resolve(root, url.slice("/uploads/".length));
  if (!file.startsWith(root + path.sep)) return;
  await fs.rm(file, { force: true });
}
