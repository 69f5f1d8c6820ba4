/**
 * QC photos: the spec's limits and messages (docs/product/storefront.md 5 and 9, docs/product/admin.md
 * 5, 8 and 9), verbatim. Client-safe: the upload box checks a selection with the same
 * rules and words before sending it; the server checks again (by content, not by name).
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

export const QC_PAGE_SIZES = {
  /** public and admin lists of one product's photos */
  list: 20,
  /** the review queue */
  pending: 20,
  /** QC manager folders: 10, 20 (default), 50 */
  folders: [10, 20, 50] as const,
  foldersDefault: 20,
} as const;

export const QC_FILTERS = ["all", "withQC", "withoutQC", "local", "external"] as const;
export type QcFilter = (typeof QC_FILTERS)[number];

export const QC_FILTER_LABELS: Record<QcFilter, string> = {
  all: "All",
  withQC: "With QC",
  withoutQC: "Without QC",
  local: "Local",
  external: "External",
};

export type QcStatus = "pending" | "approved" | "rejected";

/** The longest review reason (a note for the sender), in characters. */
export const QC_REASON_MAX = 500;

export const QC_MESSAGES = {
  // storefront (docs/product/storefront.md 5, 8)
  tooManyFiles: "Maximum 10 files allowed",
  invalidType: (file: string) => `${file}: Invalid file type. Only JPG, PNG, WEBP allowed`,
  tooLarge: (file: string) => `${file}: File too large. Maximum 10MB`,
  /** the same file sent again by its uploader for the same product (its SHA-256 is known) */
  duplicate: (file: string) => `${file}: You have already uploaded this photo for this product`,
  noValidFiles: "No valid files selected",
  productIdMissing: "Product ID missing, cannot upload QC images",
  limitReached: `Upload limit reached (${QC_LIMITS.perUserPerProduct}/${QC_LIMITS.perUserPerProduct})`,
  onlyMore: (remaining: number, used: number) =>
    `You can only upload ${remaining} more photos (${used}/${QC_LIMITS.perUserPerProduct} already uploaded)`,
  uploadFailed: "Failed to upload QC images",
  noPhotos: "No QC photos available.",
  tooManyRequests: "Too many requests, please try again later",
  productNotFound: "Product not found",
  // what the server answers (the admin screens translate the first two, docs/product/admin.md 8)
  alreadyProcessed: "QC image already processed",
  imageNotFound: "QC image not found",
  // back office (docs/product/admin.md 5, 8)
  chooseToDelete: "请选择要删除的图片",
  chooseToReview: "请选择要操作的图片",
  validNumericId: "请输入有效的数字ID",
  productNotFoundZh: "找不到指定的产品",
  alreadyProcessedZh: "图片已被处理，可能被其他管理员操作了",
  imageNotFoundZh: "图片不存在或已被删除",
  operationFailed: "操作失败",
  batchFailed: (n: number) => `${n} 张图片操作失败`,
  deleteFailed: "删除图片失败",
  loadProductsFailed: "加载产品失败",
  loadImagesFailed: "加载QC图片失败",
  createFolderFailed: "创建文件夹失败",
  loadFailedRetry: "加载失败，请重试",
  uploadedNoUrl: "QC图片上传成功但未返回图片URL",
  // success notices (not in the spec: worded for shoppers and staff)
  uploadedPending: (n: number) => `${n} photo${n === 1 ? "" : "s"} uploaded. They appear in the gallery once a moderator approves them.`,
  uploadedPublished: (n: number) => `${n} photo${n === 1 ? "" : "s"} published.`,
  approved: (n: number) => `${n} photo${n === 1 ? "" : "s"} approved.`,
  rejected: (n: number) => `${n} photo${n === 1 ? "" : "s"} rejected and deleted.`,
  deleted: (n: number) => `${n} photo${n === 1 ? "" : "s"} deleted.`,
  reasonTooLong: `Keep the reason under ${QC_REASON_MAX} characters`,
} as const;

/** What the admin screens show for a review failure (docs/product/admin.md 8: by the server's message). */
export function reviewFailureText(message: string): string {
  if (message === QC_MESSAGES.reasonTooLong) return message;
  if (message.includes("already processed")) return QC_MESSAGES.alreadyProcessedZh;
  if (message.toLowerCase().includes("not found")) return QC_MESSAGES.imageNotFoundZh;
  return QC_MESSAGES.operationFailed;
}

/** How many more photos a non-admin user may send for a product, and the message when none or too few. */
export function allowance(used: number): { remaining: number; message: string | null } {
  const remaining = Math.max(0, QC_LIMITS.perUserPerProduct - used);
  return { remaining, message: remaining === 0 ? QC_MESSAGES.limitReached : null };
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
  if (files.length > QC_LIMITS.filesPerBatch) return { valid: 0, errors: [QC_MESSAGES.tooManyFiles] };
  const errors: string[] = [];
  let valid = 0;
  for (const file of files) {
    if (file.size > QC_LIMITS.fileBytes) errors.push(QC_MESSAGES.tooLarge(file.name));
    else valid += 1;
  }
  if (valid === 0) return { valid, errors: [...errors, QC_MESSAGES.noValidFiles] };
  if (options.used !== null) {
    const { remaining } = allowance(options.used);
    if (remaining === 0) return { valid: 0, errors: [QC_MESSAGES.limitReached] };
    if (valid > remaining) return { valid: 0, errors: [QC_MESSAGES.onlyMore(remaining, options.used)] };
  }
  return { valid, errors };
}

/**
 * 'New QC folder' (docs/product/admin.md 5): the id, trimmed. 10 or more digits is a platform
 * item id first (then a database id); 1 to 9 digits a database id first (then a platform
 * item id); anything else '请输入有效的数字ID'.
 */
export function folderLookupOrder(raw: string): { value: string; order: Array<"itemId" | "id"> } | { error: string } {
  const value = raw.trim();
  // any run of digits is an id to look for (a long one simply matches nothing); the input box caps its length
  if (!/^\d{1,64}$/.test(value)) return { error: QC_MESSAGES.validNumericId };
  return { value, order: value.length >= 10 ? ["itemId", "id"] : ["id", "itemId"] };
}
