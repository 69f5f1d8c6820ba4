/**
 * Staff's word on two listings found alike (issue 38): one schema for the back office's
 * form and PUT /api/admin/products/:id/same-item/:otherId.
 */
import { z } from "zod";
import { SAME_ITEM_DECISIONS, SAME_ITEM_MESSAGES as M } from "./photo-search-rules";

/** the /api's body: linked, dismissed, or null to let the photos decide again */
export const sameItemDecisionSchema = z.object({
  decision: z.enum(SAME_ITEM_DECISIONS, { error: M.decision }).nullable(),
});

/** the form's: the other listing, and linked, dismissed or forget */
export const sameItemFormSchema = z.object({
  other: z.coerce.number({ error: M.other }).int({ error: M.other }).positive({ error: M.other }),
  decision: z.enum([...SAME_ITEM_DECISIONS, "forget"], { error: M.decision }),
});
