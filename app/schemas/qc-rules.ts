/**
 * QC photos: the spec's limits and messages (docs/product/storefront.md 5 and 9, docs/product/admin.md
 * 5, 8 and 9), verbatim. Client-safe: the upload box checks a selection with the same
 * rules and words before sending it; the server checks again (by content, not by name).
 */

// the limits and the browser's check of a selection live in ./qc-selection (the product
// page's script carries only them); they are this module's too
import { QC_SELECTION_MESSAGES } from "./qc-selection";
export { allowance, checkSelection, QC_ACCEPT_ATTRIBUTE, QC_LIMITS } from "./qc-selection";

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
  tooManyFiles: QC_SELECTION_MESSAGES.tooManyFiles,
  invalidType: (file: string) => `${file}: Invalid file type. Only JPG, PNG, WEBP allowed`,
  tooLarge: QC_SELECTION_MESSAGES.tooLarge,
  tooManyPixels: (file: string, maxPixels: number) => `${file}: Image too large. Maximum ${maxPixels / 1_000_000} megapixels`,
  /** the same file sent again by its uploader for the same product (its SHA-256 is known) */
  duplicate: (file: string) => `${file}: You have already uploaded this photo for this product`,
  unknownSku: "This product has no option of that name: choose one of its options, or none",
  noValidFiles: QC_SELECTION_MESSAGES.noValidFiles,
  productIdMissing: "Product ID missing, cannot upload QC images",
  limitReached: QC_SELECTION_MESSAGES.limitReached,
  onlyMore: QC_SELECTION_MESSAGES.onlyMore,
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
