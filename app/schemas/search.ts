/** The search's words: one zod schema per input, shared by the admin page and /api. Limits and messages are in search-rules.ts. */
import { z } from "zod";
import { plainLine } from "~/lib/text";
import { booleanish } from "./catalogue";
import { SEARCH_ALIAS_ALTERNATIVES_MAX, SEARCH_ALIAS_MESSAGES as M, SEARCH_ALIAS_TERM_MAX } from "./search-rules";

export * from "./search-rules";

const line = (value: unknown) => (typeof value === "string" ? plainLine(value).replace(/\s+/g, " ").trim() : value);

/** The alternatives as a list, or as the form's one line separated by commas (、，; also). */
const alternativesList = (value: unknown) => {
  const parts = typeof value === "string" ? value.split(/[,，、;；\n]/) : Array.isArray(value) ? value : value;
  return Array.isArray(parts) ? [...new Set(parts.map(line).filter((part) => typeof part !== "string" || part !== ""))] : parts;
};

export const searchAliasSchema = z
  .object({
    term: z.preprocess(line, z.string(M.termRequired).min(1, M.termRequired).max(SEARCH_ALIAS_TERM_MAX, M.termTooLong)),
    alternatives: z.preprocess(
      alternativesList,
      z
        .array(z.string().min(1).max(SEARCH_ALIAS_TERM_MAX, M.alternativeTooLong), M.alternativesRequired)
        .min(1, M.alternativesRequired)
        .max(SEARCH_ALIAS_ALTERNATIVES_MAX, M.alternativesTooMany),
    ),
    both_ways: z.preprocess((value) => value ?? false, booleanish),
  })
  .superRefine((body, ctx) => {
    if (body.alternatives.some((alternative) => alternative.toLowerCase() === body.term.toLowerCase())) {
      ctx.addIssue({ code: "custom", path: ["alternatives"], message: M.sameAsTerm });
    }
  });
export type SearchAliasBody = z.infer<typeof searchAliasSchema>;
