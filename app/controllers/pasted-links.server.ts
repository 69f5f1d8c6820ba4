/**
 * What the storefront shows for a pasted text (search box, /import, an unknown
 * /:platform/:itemId): for each link, the product when it is in the catalogue; else the
 * item's marketplace page and the agents' links at once (no login needed: what a link
 * converter gives), the import offer for a logged-in shopper, or what is wrong with it.
 */
import type { PastedView } from "~/components/storefront/import-panel";
import { readPreferredAgent } from "~/lib/agent-preference.server";
import { productPath } from "~/services/catalogue/common.server";
import { redirect } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";
import { PASTE_MESSAGES } from "~/schemas/marketplace-rules";
import { findPasted, findPastedAll, itemLinks, type FindOutcome } from "~/marketplace/find.server";
import { limitMarketplaceFetches } from "~/services/rate-limit.server";
import { getPageUser } from "~/services/request-user.server";
import { marketplaceUrl, type Platform } from "~/schemas/catalogue-rules";
import { json as jsonResponse } from "@remix-run/node";

/** One link's view. */
export async function pastedView(request: Request, link: string, outcome: FindOutcome): Promise<PastedView> {
  const preferred = readPreferredAgent(request);
  switch (outcome.kind) {
    case "found":
      return { kind: "found", link, name: outcome.product.name, path: productPath(outcome.product) };
    case "error":
      return { kind: "error", link, message: outcome.message };
    case "choose":
      return {
        kind: "choose",
        link,
        itemId: outcome.itemId,
        candidates: outcome.candidates,
        pages: outcome.candidates.map((platform) => ({ platform, url: marketplaceUrl(platform, outcome.itemId) })),
      };
    case "importable":
      return {
        kind: "importable",
        link,
        platform: outcome.platform,
        itemId: outcome.itemId,
        links: await itemLinks(outcome.platform, outcome.itemId, preferred),
      };
  }
}

/** Every link's view, in the order pasted. */
export function pastedViews(request: Request, entries: Array<{ link: string; outcome: FindOutcome }>): Promise<PastedView[]> {
  return Promise.all(entries.map((entry) => pastedView(request, entry.link, entry.outcome)));
}

/**
 * The 404 of /:platform/:itemId for an item that is not in the catalogue: the same useful
 * panel as a pasted link (the marketplace page, the agents' links, the import offer).
 */
export async function unknownItemPage(request: Request, platform: Platform, itemId: string): Promise<Response> {
  const view = await pastedView(request, marketplaceUrl(platform, itemId), { kind: "importable", platform, itemId });
  const loggedIn = Boolean(await getPageUser(request));
  return jsonResponse({ unknownItem: { view, loggedIn } }, { status: 404, headers: { "Cache-Control": "no-store" } });
}

/**
 * What a pasted text leads to, for the search box and /import alike: the product's page
 * (a redirect is thrown), one link's view, or (several links) each one's view in the order
 * pasted. Opening short links counts against the caller's marketplace limit; past it, the
 * view says so.
 */
export async function readPastedText(
  request: Request,
  text: string,
  clientIp: string,
): Promise<{ view: PastedView; views: null; loggedIn: boolean } | { view: null; views: PastedView[]; loggedIn: boolean }> {
  const user = await getPageUser(request);
  const loggedIn = Boolean(user);
  const beforeFetch = () => limitMarketplaceFetches(user?.id ?? null, clientIp);
  const tooMany = (error: unknown): FindOutcome => {
    if (error instanceof ApiError && error.status === 429) return { kind: "error", message: PASTE_MESSAGES.tooMany };
    throw error;
  };
  const entries = await findPastedAll(text, { beforeFetch }).catch((error) => [{ link: text, outcome: tooMany(error) }]);
  if (entries.length > 1) return { view: null, views: await pastedViews(request, entries), loggedIn };
  // one link: its outcome, already found (a short link is opened once); none: why not
  const outcome = entries[0]?.outcome ?? (await findPasted(text, { beforeFetch }).catch(tooMany));
  if (outcome.kind === "found") throw redirect(productPath(outcome.product));
  return { view: await pastedView(request, text, outcome), views: null, loggedIn };
}
