/**
 * What an answer given again from memory must still count (docs/stored-pages.md "How it is
 * answered"): the one list the server's front reads. A loader names what its answer counts
 * in an internal header (content-version.server.ts: the product it shows, the search, the
 * blog post); the front stores the named values with the answer, never sends the header,
 * and at each hit calls the counter here. The front knows no route and no header of its
 * own: a newly counted page adds a line here and sets the header in its loader.
 *
 * On PostgreSQL a count is written before the answer goes (another instance may take the
 * next request and must read it): a counter then answers the promise to wait for. On
 * SQLite views and searches are gathered in memory and written within a second.
 */
import { BLOG_POST_ID_HEADER, PRODUCT_ID_HEADER, SEARCH_TERM_HEADER } from "~/lib/content-version.server";
import { countsAsView } from "~/lib/crawlers";
import { log } from "~/lib/log.server";
import { countPostViewBy } from "./blog-views.server";
import { countSearch, searchCountsWritten } from "./search.server";
import { countProductView, viewsWrittenAtOnce, writeViewsNow } from "./view-counts.server";

/** The request of a hit, as the counters read it. */
export type Hit = {
  userAgent: string | null;
  /** the address's `incrementView` parameter */
  incrementView: string | null;
  clientIp: () => string;
};

/** Counts one hit of a stored answer; the promise, when there is one, must end before the answer goes. */
export type CountHit = (hit: Hit) => Promise<unknown> | undefined;

export type HitCounter = {
  /** the internal header the loader names the counted thing in */
  header: string;
  /** the counting of an answer whose header says `value`, or null when the value names nothing */
  counterFor: (value: string) => CountHit | null;
};

const positiveId = (value: string): number | null => (/^\d+$/.test(value) ? Number(value) : null);

/** The views of the product a page or product answer shows (not for crawlers, not with incrementView=false). */
const productViews: HitCounter = {
  header: PRODUCT_ID_HEADER,
  counterFor(value) {
    const productId = positiveId(value);
    if (productId === null) return null;
    return (hit) => {
      if (!countsAsView(hit.userAgent, hit.incrementView)) return undefined;
      countProductView(productId);
      return viewsWrittenAtOnce() ? writeViewsNow() : undefined;
    };
  },
};

/** The search a results page shows, for the popular searches (not for crawlers). */
const searches: HitCounter = {
  header: SEARCH_TERM_HEADER,
  counterFor(value) {
    let term: string;
    try {
      term = decodeURIComponent(value);
    } catch {
      return null;
    }
    return (hit) => {
      if (!countsAsView(hit.userAgent, null)) return undefined;
      countSearch(term);
      return viewsWrittenAtOnce() ? searchCountsWritten() : undefined;
    };
  },
};

/** The reads of a public blog post (once per reader and day: blog-views.server.ts). */
const blogReads: HitCounter = {
  header: BLOG_POST_ID_HEADER,
  counterFor(value) {
    const postId = positiveId(value);
    if (postId === null) return null;
    return (hit) => {
      const viewer = { userAgent: hit.userAgent, incrementView: hit.incrementView, clientIp: hit.clientIp(), userId: null };
      const counted = countPostViewBy(postId, viewer).catch((error: unknown) =>
        log.warn(`blog: a view of post #${postId} was not counted: ${String(error)}`),
      );
      return viewsWrittenAtOnce() ? counted : undefined;
    };
  },
};

export const HIT_COUNTERS: readonly HitCounter[] = [productViews, searches, blogReads];
