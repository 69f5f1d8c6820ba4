/**
 * The listing watch (docs/decisions/020-marketplace-links.md): external products are
 * checked again on their marketplace, gently (LISTING_CHECKS_PER_HOUR, one listing a run,
 * the one checked longest ago first, each at most once in LISTING_RECHECK_HOURS). A new
 * price is recorded in the price history (and becomes the product's price); three "not
 * found" answers in a row mark the listing unavailable; a marketplace that fails counts
 * as nothing. Shoppers can report a dead link; staff see the reports beside the status.
 */
import { pagesChanged } from "./writes.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import {
  claimNextListing,
  insertListingReport,
  listingReports,
  listingState,
  listingStates,
  recordCheckError,
  recordFound,
  recordMissing,
  type ListingState,
} from "~/models/listing.server";
import { latestPrices } from "~/models/price-history.server";
import { LISTING_MISSES_UNAVAILABLE } from "~/schemas/marketplace-rules";
import { setWatchedPrice } from "./catalogue/products.server";
import type { JobDefinition } from "./jobs.server";
import { crawlItem } from "~/marketplace/crawl.server";
import { FetchFailed, ItemNotFound } from "~/marketplace/crawl-adapter.server";
import { limitListingReports } from "./rate-limit.server";

const HOUR_MS = 60 * 60_000;

export type CheckOutcome = {
  productId: number;
  outcome: "found" | "missing" | "failed";
  priceChanged: boolean;
  status: "ok" | "unavailable";
};

/** Checks the next listing that is due; null when none is. */
export async function checkNextListing(now = new Date()): Promise<CheckOutcome | null> {
  const db = getDb();
  const dueBefore = new Date(now.getTime() - getEnv().LISTING_RECHECK_HOURS * HOUR_MS).toISOString();
  const listing = await claimNextListing(db, now.toISOString(), dueBefore);
  if (!listing) return null;
  try {
    const item = await crawlItem(listing.platform, listing.itemId, { fresh: true });
    const { wasUnavailable } = await recordFound(db, listing.productId);
    let priceChanged = false;
    if (
      item.priceCny !== null &&
      Math.round(item.priceCny * 100) !== (listing.priceCny === null ? null : Math.round(listing.priceCny * 100))
    ) {
      // the product's write records the change in its price history
      await setWatchedPrice(listing.productId, item.priceCny);
      priceChanged = true;
    }
    if (wasUnavailable && !priceChanged) pagesChanged(["shop"]);
    return { productId: listing.productId, outcome: "found", priceChanged, status: "ok" };
  } catch (error) {
    if (error instanceof ItemNotFound) {
      const state = await recordMissing(db, listing.productId, now.toISOString(), LISTING_MISSES_UNAVAILABLE);
      if (state.status === "unavailable" && state.misses === LISTING_MISSES_UNAVAILABLE) {
        log.info(`listing watch: product ${listing.productId} (${listing.platform} ${listing.itemId}) looks unavailable`);
        pagesChanged(["shop"]);
      }
      return { productId: listing.productId, outcome: "missing", priceChanged: false, status: state.status };
    }
    if (error instanceof FetchFailed) {
      await recordCheckError(db, listing.productId, error.reason);
      const state = await listingState(db, listing.productId);
      return { productId: listing.productId, outcome: "failed", priceChanged: false, status: state?.status ?? "ok" };
    }
    throw error;
  }
}

/** The periodic job: one listing a run, LISTING_CHECKS_PER_HOUR runs an hour (none when 0). */
export function listingWatchJob(): JobDefinition | null {
  const perHour = getEnv().LISTING_CHECKS_PER_HOUR;
  if (perHour === 0) return null;
  return {
    name: "listings.watch",
    every: Math.max(20, Math.floor(HOUR_MS / perHour)),
    run: async () => {
      await checkNextListing();
    },
  };
}

export type ListingNotice = {
  /** the marketplace said three times in a row that the item is gone */
  unavailable: { since: string; checkedAt: string | null } | null;
  /** the last price change seen */
  priceChange: { fromCny: number; toCny: number; at: string } | null;
};

/** What the product page says about a listing. */
export async function listingNotice(productId: number): Promise<ListingNotice> {
  const db = getDb();
  const [state, history] = await Promise.all([listingState(db, productId), latestPrices(db, productId, 2)]);
  const [latest, previous] = history;
  return {
    unavailable:
      state?.status === "unavailable" ? { since: state.unavailableSince ?? state.checkedAt ?? "", checkedAt: state.checkedAt } : null,
    priceChange:
      latest && previous && latest.priceCny !== previous.priceCny
        ? { fromCny: previous.priceCny, toCny: latest.priceCny, at: latest.recordedAt }
        : null,
  };
}

export async function listingStatesOf(productIds: number[]): Promise<Map<number, ListingState & { reports: number }>> {
  return listingStates(getDb(), productIds);
}

export async function reportsOf(productId: number) {
  return listingReports(getDb(), productId);
}

/** A shopper's report of a dead link (visitors too), rate limited. */
export async function reportDeadLink(
  productId: number,
  reporter: { userId: number | null; ip: string },
  note: string | null,
): Promise<void> {
  await limitListingReports(reporter.userId, reporter.ip);
  await insertListingReport(getDb(), { productId, userId: reporter.userId, note });
}

export async function priceHistoryOf(productId: number) {
  return latestPrices(getDb(), productId);
}
