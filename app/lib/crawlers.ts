/**
 * Crawlers, link previews and monitors (not HTTP libraries: an app calling the API with
 * its own client is a reader like a browser). Their visits are not counted as views.
 */
const CRAWLER =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|headlesschrome|lighthouse|pingdom|uptime|monitor/i;

export function isCrawler(userAgent: string | null | undefined): boolean {
  return CRAWLER.test(userAgent ?? "");
}

/** A view counts for people, not crawlers, and not when the caller asks not to (incrementView=false). */
export function countsAsView(userAgent: string | null | undefined, incrementView: string | null): boolean {
  if (incrementView === "false" || incrementView === "0") return false;
  return !isCrawler(userAgent);
}
