/**
 * QC photo uploads: the spec's limits and what the upload box says of a selection before
 * sending it (docs/product/storefront.md 5), verbatim, the same rules and words as the
 * server's (app/schemas/qc-rules.ts holds every other QC message and re-exports these).
 * A module of its own so that the product page's script carries these few, not every
 * QC message of the back office.
 */

export const QC_LIMITS = {
  /** files per selection (one upload) */
  filesPerBatch: 10,
  /** bytes per file */
  fileBytes: 10 * 1024 * 1024,
  /** photos one non-admin user may have on one product (pending and approved) */
  perUserPerProduct: 10,
  /** thumbnails on a product card of the QC manager, then '+N more' */
  cardThumbnails: 20,
} as const;

/** What the file picker offers (a hint to the picker: the server checks the bytes). */
export const QC_ACCEPT_ATTRIBUTE = ".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp";

export const QC_SELECTION_MESSAGES = {
  tooManyFiles: "Maximum 10 files allowed",
  tooLarge: (file: string) => `${file}: File too large. Maximum 10MB`,
  noValidFiles: "No valid files selected",
  limitReached: `Upload limit reached (${QC_LIMITS.perUserPerProduct}/${QC_LIMITS.perUserPerProduct})`,
  onlyMore: (remaining: number, used: number) =>
    `You can only upload ${remaining} more photos (${used}/${QC_LIMITS.perUserPerProduct} already uploaded)`,
};

/** How many more photos a non-admin user may send for a product, and the message when none or too few. */
export function allowance(used: number): { remaining: number; message: string | null } {
  const remaining = Math.max(0, QC_LIMITS.perUserPerProduct - used);
  return { remaining, message: remaining === 0 ? QC_SELECTION_MESSAGES.limitReached : null };
}

/**
 * The browser's check of a selection before it is sent: what it can know as the server
 * does (each file's size, the count of the selection, the user's allowance). Whether a
 * file is a JPG, PNG or WEBP is not among them: the server reads the content (a PNG named
 * .gif is a PNG, a text file named .png is not an image), the browser only guesses from
 * the name, so it leaves that to the server's answer.
 */
export function checkSelection(
  files: ReadonlyArray<{ name: string; type: string; size: number }>,
  options: { used: number | null },
): { valid: number; errors: string[] } {
  if (files.length > QC_LIMITS.filesPerBatch) return { valid: 0, errors: [QC_SELECTION_MESSAGES.tooManyFiles] };
  const errors: string[] = [];
  let valid = 0;
  for (const file of files) {
    if (file.size > QC_LIMITS.fileBytes) errors.push(QC_SELECTION_MESSAGES.tooLarge(file.name));
    else valid += 1;
  }
  if (valid === 0) return { valid, errors: [...errors, QC_SELECTION_MESSAGES.noValidFiles] };
  if (options.used !== null) {
    const { remaining } = allowance(options.used);
    if (remaining === 0) return { valid: 0, errors: [QC_SELECTION_MESSAGES.limitReached] };
    if (valid > remaining) return { valid: 0, errors: [QC_SELECTION_MESSAGES.onlyMore(remaining, options.used)] };
  }
  return { valid, errors };
}
