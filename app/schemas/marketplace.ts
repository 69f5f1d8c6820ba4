/** Marketplace inputs: one zod schema per input, shared by pages and /api. */
import { z } from "zod";
import { blankToNull, booleanish } from "./catalogue";
import { PLATFORMS } from "./catalogue-rules";
import { linkFormProblem } from "~/marketplace/links";
import { AGENT_MESSAGES as A, CRAWL_MESSAGES as C, LISTING_MESSAGES as L } from "./marketplace-rules";

export * from "./marketplace-rules";

/** GET /api/crawl/:platform?itemId= (taobao also takes platform=tmall). */
export const crawlQuerySchema = z.object({
  itemId: z
    .string(C.itemIdRequired)
    .trim()
    .min(1, C.itemIdRequired)
    .regex(/^\d{5,20}$/, C.itemIdInvalid),
  platform: z.enum(PLATFORMS).optional().catch(undefined),
});

/** What is wrong with a link form, in the form's words (null: it is read back as it is written). */
function linkFormMessage(value: string): string | null {
  switch (linkFormProblem(value)) {
    case null:
      return null;
    case "misplaced":
      return A.templatePlaceholderPlace;
    case "twoInOnePiece":
      return A.templateOnePerPart;
    default:
      return A.templateInvalid;
  }
}

/**
 * A link form, compiled as the link reader compiles it (app/marketplace/links.ts): one
 * that could not be read back is refused on save, with what is wrong.
 */
const template = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(500, A.templateInvalid)
    .superRefine((value, context) => {
      const message = linkFormMessage(value);
      if (message) context.addIssue({ code: "custom", message });
    })
    .nullable(),
);

const readPatterns = z.preprocess(
  (value) => (typeof value === "string" ? value : ""),
  z
    .string()
    .max(4000, A.readPatternsInvalid)
    .superRefine((value, context) => {
      for (const line of value.split("\n").map((text) => text.trim())) {
        if (!line) continue;
        const [platform, link] = line.split(/\s+/, 2);
        if (!(PLATFORMS as readonly string[]).includes(platform ?? "") || !link) {
          context.addIssue({ code: "custom", message: A.readPatternsInvalid });
          return;
        }
        // a line of the right shape whose form cannot be read back: what is wrong with it
        const message = link.length > 500 ? A.templateInvalid : linkFormMessage(link);
        if (message) {
          context.addIssue({ code: "custom", message });
          return;
        }
      }
    }),
);

/** The agent form (/admin/agents/new and /admin/agents/:id). */
export const agentSchema = z
  .object({
    name: z.string(A.nameRequired).trim().min(1, A.nameRequired).max(60, "At most 60 characters"),
    template_weidian: template.optional(),
    template_taobao: template.optional(),
    template_tmall: template.optional(),
    template_1688: template.optional(),
    read_patterns: readPatterns.optional(),
    referral_param: z
      .preprocess(
        blankToNull,
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_-]{1,40}$/, A.referralParamInvalid)
          .nullable(),
      )
      .optional(),
    referral_code: z.preprocess(blankToNull, z.string().trim().max(100, "At most 100 characters").nullable()).optional(),
    enabled: z.preprocess((value) => value ?? false, booleanish).optional(),
  })
  .refine((body) => Boolean(body.template_weidian || body.template_taobao || body.template_tmall || body.template_1688), {
    message: A.templateRequired,
    path: ["template_taobao"],
  });
export type AgentBody = z.infer<typeof agentSchema>;

/** A shopper's dead-link report. */
export const listingReportSchema = z.object({
  note: z.preprocess(blankToNull, z.string().trim().max(500, L.noteTooLong).nullable()).optional(),
});
