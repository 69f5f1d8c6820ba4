/**
 * What the storefront shows for a pasted text (search box, /import, an unknown
 * /:platform/:itemId): for each link, the product when it is in the catalogue; else the
 * item's marketplace page and the agents' links at once (no login needed: what a link
 * converter gives), the import offer for a logged-in shopper, or what is wrong with it.
 */
import type { PastedView } from "~/components/storefront/import-panel";
import { readPreferredAgent } from "~/lib/agent-preference.server";
import { productPath } from "~/services/catalogue.server";
import { itemLinks, type FindOutcome } from "~/services/marketplace.server";
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
        pages: await Promise.all(
          outcome.candidates.map(async (platform) => ({ platform, url: (await itemLinks(platform, outcome.itemId)).marketplace })),
        ),
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
