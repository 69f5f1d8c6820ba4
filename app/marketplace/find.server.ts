/**
 * Where a pasted text leads (docs/marketplace-links.md, "How a pasted text is read"): a
 * product already in the catalogue, an item to import (import.server.ts), a choice of
 * marketplace for a bare number, or a message; a short link is opened first
 * (short-links.server.ts). Also where an item not in the catalogue can be seen and bought.
 */
import { log } from "~/lib/log.server";
import { getDb } from "~/lib/db.server";
import { findProductByPlatformItem, findProductsByItemId, type Product } from "~/models/product.server";
import { marketplaceUrl, type Platform } from "~/schemas/catalogue-rules";
import { PASTE_MESSAGES as P } from "~/schemas/marketplace-rules";
import { agentLinksFor, agentPatterns, LINK_DECODERS, readPastedLink } from "./agent-links.server";
import { readMarketplaceInputs, type LinkReading } from "./links";
import { resolveShortLink } from "./short-links.server";

export type FindOutcome =
  | { kind: "found"; product: Product }
  | { kind: "importable"; platform: Platform; itemId: string }
  /** a bare 10–12 digit number not in the catalogue: Weidian or 1688 */
  | { kind: "choose"; itemId: string; candidates: Platform[] }
  | { kind: "error"; message: string };

/** Whether a text is a link or an item id (then search shows where it leads, not matches). */
export async function isPastedLink(text: string): Promise<boolean> {
  const kind = (await readPastedLink(text)).kind;
  return kind === "item" || kind === "number" || kind === "short" || kind === "unresolvable";
}

/**
 * What a pasted text leads to: a product already in the catalogue (by platform and item
 * id; for a bare number, by item id on any marketplace), an item to import, or a message.
 */
export async function findPasted(text: string, options: { beforeFetch?: () => Promise<void> } = {}): Promise<FindOutcome> {
  let reading: LinkReading = await readPastedLink(text);
  if (reading.kind === "empty") return { kind: "error", message: P.required };
  if (reading.kind === "unsupported") return { kind: "error", message: P.unsupported };
  if (reading.kind === "unresolvable") return { kind: "error", message: P.unresolvable };
  if (reading.kind === "short") {
    let resolved: { platform: Platform; itemId: string } | null = null;
    // opening a short link is a request to the outside: the caller limits how many
    await options.beforeFetch?.();
    try {
      resolved = await resolveShortLink(reading.url);
    } catch (error) {
      log.info(`short link ${reading.url} not opened: ${(error as Error).message}`);
    }
    if (!resolved) return { kind: "error", message: P.shortLinkFailed };
    reading = { kind: "item", ...resolved, via: "link" };
  }
  const db = getDb();
  if (reading.kind === "number") {
    const existing = (await findProductsByItemId(db, reading.itemId)).filter(
      (product) => product.platform && reading.kind === "number" && reading.candidates.includes(product.platform),
    );
    if (existing[0]) return { kind: "found", product: existing[0] };
    if (reading.candidates.length === 1) return { kind: "importable", platform: reading.candidates[0], itemId: reading.itemId };
    return { kind: "choose", itemId: reading.itemId, candidates: reading.candidates };
  }
  // a Taobao link finds the Tmall product of the same id, and the other way round (one listing)
  const product = await findProductByPlatformItem(db, reading.platform, reading.itemId);
  if (product) return { kind: "found", product };
  return { kind: "importable", platform: reading.platform, itemId: reading.itemId };
}

/** How many links of one pasted text are looked up (a list of finds; a spreadsheet goes through the bulk import). */
export const PASTE_MAX_LINKS = 20;

export type PastedEntry = { link: string; outcome: FindOutcome };

/**
 * Every link of a pasted text with where it leads, in the order pasted (the same item
 * once): the list a shopper gets for a text that holds several links.
 */
export async function findPastedAll(text: string, options: { beforeFetch?: () => Promise<void> } = {}): Promise<PastedEntry[]> {
  const readings = readMarketplaceInputs(text, await agentPatterns(), LINK_DECODERS).slice(0, PASTE_MAX_LINKS);
  const entries: PastedEntry[] = [];
  for (const { link } of readings) entries.push({ link, outcome: await findPasted(link, options) });
  return entries;
}

/** Where an item can be seen and bought without being in the catalogue: its marketplace page and the agents' links. */
export async function itemLinks(platform: Platform, itemId: string, preferredAgentId: number | null = null) {
  return {
    marketplace: marketplaceUrl(platform, itemId),
    agents: (await agentLinksFor({ platform, platformItemId: itemId }, preferredAgentId)).map(({ name, url }) => ({ name, url })),
  };
}
