/**
 * Reading multipart bodies (docs/architecture.md "Where framework internals are touched"):
 * the one module that uses Remix's unstable multipart API. Every file is streamed to a
 * private temporary folder under DATA_DIR/tmp with caps per file, per field and in all;
 * the folder goes when the handler ends, whatever happens. A move off Remix's API (React
 * Router 7, @mjackson/form-data-parser) changes this file only.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { setImmediate } from "node:timers/promises";
import {
  MaxPartSizeExceededError,
  NodeOnDiskFile,
  unstable_createFileUploadHandler,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
  type UploadHandlerPart,
} from "@remix-run/node";
import { ApiError } from "./api.server";
import { isPayloadTooLarge } from "./body-limits.server";
import { getEnv } from "./env.server";

export type MultipartLimits = {
  /** bytes per file */
  maxFileBytes: number;
  /** file parts with a name (an empty file input does not count) */
  maxFiles: number;
  /** text fields */
  maxFields?: number;
  /** all parts together */
  maxTotalBytes?: number;
  /** bytes per text field (default 64 KB) */
  maxFieldBytes?: number;
  messages: { fileTooLarge: string; tooManyFiles?: string };
  /** the status of too many files (default 413; a selection rule of the spec is a 400) */
  tooManyFilesStatus?: number;
};

const FIELD_MAX_BYTES = 64 * 1024;
/** DATA_DIR/tmp: uploads in progress (the hourly housekeeping removes what a crash left) */
export const TMP_FOLDER = "tmp";

class MultipartLimitError extends Error {
  constructor(
    message: string,
    public status = 413,
  ) {
    super(message);
  }
}

/** Files of a parsed multipart form are on disk for the length of the handler. */
export type UploadedFile = NodeOnDiskFile;

const sentNames = new WeakMap<NodeOnDiskFile, string>();

/** The file name the browser sent with an uploaded file (for messages; never used as a path). */
export function sentFileName(file: UploadedFile): string {
  return sentNames.get(file) ?? "image";
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return value instanceof NodeOnDiskFile;
}

/** An uploaded file's bytes, read in one piece (the File API's arrayBuffer() reads it in chunks and copies them together). */
export async function uploadedBytes(file: UploadedFile): Promise<Uint8Array> {
  return new Uint8Array(await fs.readFile(file.getFilePath()));
}

/** Bytes of a body read between two turns of the event loop: a large upload already received does not hold up other requests while it is parsed. */
const PARSE_SLICE_BYTES = 256 * 1024;

/**
 * Parses a multipart body with every file streamed to a private temporary folder, calls
 * `handle` with the form, and removes the temporary files afterwards, whatever happens.
 * A file over its size answers 413 with `messages.fileTooLarge`; too many files or parts
 * answer 413 too; a body that is not multipart answers 400.
 */
export async function withMultipart<T>(request: Request, limits: MultipartLimits, handle: (form: FormData) => Promise<T>): Promise<T> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new ApiError(400, "Expected a multipart/form-data upload", "VALIDATION_ERROR");
  }
  const tmpRoot = path.join(getEnv().DATA_DIR, TMP_FOLDER);
  await fs.mkdir(tmpRoot, { recursive: true });
  const dir = await fs.mkdtemp(path.join(tmpRoot, "upload-"));
  try {
    const form = await parseToDisk(request, dir, limits);
    return await handle(form);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function parseToDisk(request: Request, dir: string, limits: MultipartLimits): Promise<FormData> {
  const maxFields = limits.maxFields ?? 20;
  const maxFieldBytes = limits.maxFieldBytes ?? FIELD_MAX_BYTES;
  const maxTotal = limits.maxTotalBytes ?? limits.maxFileBytes * limits.maxFiles + maxFields * maxFieldBytes;
  const onDisk = unstable_createFileUploadHandler({
    directory: dir,
    maxPartSize: limits.maxFileBytes,
    file: () => crypto.randomUUID(),
    avoidFileConflicts: false,
  });
  const inMemory = unstable_createMemoryUploadHandler({ maxPartSize: maxFieldBytes });
  let files = 0;
  let fields = 0;
  let total = 0;
  let sinceTurn = 0;
  async function* counted(data: AsyncIterable<Uint8Array>) {
    for await (const chunk of data) {
      total += chunk.byteLength;
      if (total > maxTotal) throw new MultipartLimitError(limits.messages.fileTooLarge);
      yield chunk;
      sinceTurn += chunk.byteLength;
      if (sinceTurn >= PARSE_SLICE_BYTES) {
        sinceTurn = 0;
        await setImmediate();
      }
    }
  }
  const handler: UploadHandler = async (part: UploadHandlerPart) => {
    const withCount = { ...part, data: counted(part.data) };
    if (part.filename) {
      files += 1;
      if (files > limits.maxFiles) {
        throw new MultipartLimitError(
          limits.messages.tooManyFiles ?? `At most ${limits.maxFiles} files can be sent at once`,
          limits.tooManyFilesStatus,
        );
      }
      try {
        const file = await onDisk(withCount);
        // stored under a random name; the name the browser sent is kept for messages
        if (file instanceof NodeOnDiskFile) sentNames.set(file, part.filename.slice(0, 200));
        return file;
      } catch (error) {
        if (error instanceof MaxPartSizeExceededError) throw new MultipartLimitError(limits.messages.fileTooLarge);
        throw error;
      }
    }
    fields += 1;
    if (fields > maxFields) throw new MultipartLimitError("The form has too many fields");
    try {
      return await inMemory(withCount);
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw new MultipartLimitError(`The field "${part.name}" is too long`, 400);
      throw error;
    }
  };
  try {
    return await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (isPayloadTooLarge(error)) throw error;
    if (error instanceof MultipartLimitError) {
      throw new ApiError(error.status, error.message, error.status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION_ERROR");
    }
    throw new ApiError(400, "The upload could not be read", "VALIDATION_ERROR");
  }
}
