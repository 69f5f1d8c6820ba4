/**
 * QC inputs: one zod schema per input, shared by pages and /api. The limits and messages
 * are in ./qc-rules (client-safe, no zod).
 */
import { z } from "zod";
import { limitParam, pageParam } from "./catalogue";
import { QC_FILTERS, QC_MESSAGES as M, QC_PAGE_SIZES, QC_REASON_MAX } from "./qc-rules";

/** GET /api/qc/qc-images/pending and the review page: 20 a page. */
export const pendingQuerySchema = z.object({
  page: pageParam,
  limit: limitParam(QC_PAGE_SIZES.pending),
});

/** GET /api/products/with-qc (limit 20) and the QC manager (10, 20 or 50). */
export const withQcQuerySchema = z.object({
  page: pageParam,
  limit: limitParam(QC_PAGE_SIZES.foldersDefault),
  searchTerm: z.string().trim().max(200).catch("").default(""),
  filterType: z.enum(QC_FILTERS).catch("all").default("all"),
});

export const qcManagerQuerySchema = withQcQuerySchema.extend({
  limit: z.coerce
    .number()
    .int()
    .refine((value) => (QC_PAGE_SIZES.folders as readonly number[]).includes(value))
    .catch(QC_PAGE_SIZES.foldersDefault)
    .default(QC_PAGE_SIZES.foldersDefault),
  view: z.enum(["folders", "grid"]).catch("folders").default("folders"),
});

const reason = z
  .preprocess(
    (value) => (typeof value === "string" && value.trim() ? value.trim() : null),
    z.string().max(QC_REASON_MAX, M.reasonTooLong).nullable(),
  )
  .optional();

/** PUT /api/qc/qc-images/:id/review. */
export const reviewSchema = z.object({
  status: z.enum(["approved", "rejected"], "status must be approved or rejected"),
  reason,
});

/** The review page's batch and the QC manager's delete: photo ids (at least one). */
export function imageSelectionSchema(noneMessage: string) {
  return z.object({
    ids: z.array(z.coerce.number().int().positive()).min(1, noneMessage).max(500, "Select at most 500 photos at a time"),
  });
}

export const deleteSelectionSchema = imageSelectionSchema(M.chooseToDelete);
export const reviewSelectionSchema = imageSelectionSchema(M.chooseToReview);
