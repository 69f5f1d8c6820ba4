/**
 * How large a request body the server accepts. The server (server/serve.ts) enforces
 * these for every request, by Content-Length before reading and by counting the bytes as
 * they stream, and answers 413 (the JSON envelope under /api, a plain page elsewhere).
 * Multipart readers (app/services/uploads.server.ts) add their own caps per form.
 */

export const MB = 1024 * 1024;

/** JSON, urlencoded forms, anything that is not multipart. */
export const DEFAULT_BODY_LIMIT = 1 * MB;
/** multipart/form-data: an avatar or a few product images plus the form fields. */
export const MULTIPART_BODY_LIMIT = 12 * MB;

/** The product form's uploads: files per post, and how much of each file is read (10 MB are kept). */
export const PRODUCT_FORM_MAX_FILES = 6;
export const PRODUCT_FORM_FILE_STREAM_BYTES = 24 * MB;
/** The post editor's featured image: how much of the file is read (10 MB are kept). */
export const BLOG_FORM_FILE_STREAM_BYTES = 24 * MB;
/** Search by photo: how much of the file is read (10 MB are searched with), so an oversize one gets its own 400. */
export const PHOTO_SEARCH_FILE_STREAM_BYTES = 32 * MB;
/** The post editor's text fields (the body: up to 500,000 characters of up to 4 bytes). */
export const BLOG_FORM_FIELD_BYTES = 2 * MB;

/**
 * Routes that take more than the multipart default. Each entry says why; a route that
 * needs more adds a line here (and its multipart reader streams the files to disk).
 */
const LARGER_BODIES: ReadonlyArray<{ path: RegExp; bytes: number; why: string }> = [
  {
    // the contract: a photo over 10 MB is a 400 with the envelope, so it is read to the end
    path: /^\/(api\/)?search\/photo$/,
    bytes: PHOTO_SEARCH_FILE_STREAM_BYTES + MB,
    why: "search by photo: one picture, read up to 32 MB so an oversize one gets its own 400",
  },
  {
    // docs/product/storefront.md 5: up to 10 files of 10 MB each, plus the multipart framing
    path: /^\/api\/qc\/products\/[^/]+\/qc-images\/(user|admin)$/,
    bytes: 10 * 10 * MB + MB,
    why: "QC photo uploads: 10 files of 10 MB",
  },
  {
    // the same uploads from the pages: the product page's upload box (at either address
    // of a product) and the back office's QC screens
    path: /^\/(product\/\d+|(weidian|taobao|tmall|1688)\/[^/]+|admin\/products\/\d+\/qc|admin\/qc-manager)$/,
    bytes: 10 * 10 * MB + MB,
    why: "QC photo upload forms: 10 files of 10 MB",
  },
  {
    // the product form takes several images at once; a file over 10 MB is refused by
    // name in the form (the rest of what was typed kept), so the body may hold one
    path: /^\/admin\/products\/(new|\d+\/edit)$/,
    bytes: PRODUCT_FORM_MAX_FILES * PRODUCT_FORM_FILE_STREAM_BYTES + MB,
    why: "product form: up to 6 image files, each read up to 24 MB so an oversize one gets its own message",
  },
  {
    // the post editor's featured image, read up to 24 MB so an oversize one gets its own
    // message with the post kept
    path: /^\/admin\/blog\/posts\/(new|\d+\/edit)$/,
    bytes: BLOG_FORM_FILE_STREAM_BYTES + BLOG_FORM_FIELD_BYTES + MB,
    why: "post editor: one featured image, read up to 24 MB, plus a post of up to 500,000 characters",
  },
];

/**
 * The byte limit for a request's body. A form sent with JavaScript posts to the page's
 * address plus ".data" (Remix's single fetch: /product/51.data): the same page, the
 * same limit.
 */
export function bodyLimitFor(pathname: string, contentType: string | undefined): number {
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) return DEFAULT_BODY_LIMIT;
  const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return LARGER_BODIES.find((entry) => entry.path.test(page))?.bytes ?? MULTIPART_BODY_LIMIT;
}

/**
 * The error a request body stream fails with once it passes its limit. The Remix build
 * and the server hold separate copies of app code, so it is recognised by name.
 */
export const PAYLOAD_TOO_LARGE = "PayloadTooLargeError";

export class PayloadTooLargeError extends Error {
  constructor(public limit: number) {
    super(`The request body is larger than ${formatBytes(limit)}`);
    this.name = PAYLOAD_TOO_LARGE;
  }
}

export function isPayloadTooLarge(error: unknown): boolean {
  return error instanceof Error && (error.name === PAYLOAD_TOO_LARGE || (error.cause as Error | undefined)?.name === PAYLOAD_TOO_LARGE);
}

export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
