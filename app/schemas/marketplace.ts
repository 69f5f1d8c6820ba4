/** Marketplace inputs: one zod schema per input, shared by pages and /api. */
import { z } from "zod";
import { blankToNull, booleanish } from "./catalogue";
import { PLATFORMS } from "./catalogue-rules";
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

const PLACEHOLDER = /\{(id|url|url2)\}/;

const template = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(500, A.templateInvalid)
    .refine((value) => {
      if (!PLACEHOLDER.test(value)) return false;
      try {
        const url = new URL(value.replace(/\{(id|url|url2)\}/g, "1"));
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, A.templateInvalid)
    .nullable(),
);

const readPatterns = z.preprocess(
  (value) => (typeof value === "string" ? value : ""),
  z
    .string()
    .max(4000, A.readPatternsInvalid)
    .refine(
      (value) =>
        value
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .every((line) => {
            const [platform, link] = line.split(/\s+/, 2);
            return (PLATFORMS as readonly string[]).includes(platform) && template.safeParse(link).success && Boolean(link);
          }),
      A.readPatternsInvalid,
    ),
);

/** The agent form and POST/PUT /api/admin/agents. */
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
