/**
 * A number that changes whenever something a visitor's page shows changes: the catalogue,
 * QC photos, agents, search words, site settings, exchange rates (and the blog's own
 * number, below). What is kept in memory for anonymous pages (the stored answers of server/stored-answers.ts, the
 * category list) is read again after it moves. Only the services' one write path moves
 * them (app/services/writes.server.ts; the lint refuses a call from anywhere else).
 * Writes by other processes are caught by SQLite's data_version instead (see dataVersion()).
 *
 * Kept on globalThis: the server and the Remix build each hold a copy of this module.
 */
declare global {
  var __contentVersion: Versions | undefined;
}

type Versions = { value: number; blog: number; views: Record<ViewDependency, number> };

const version: Versions = (globalThis.__contentVersion ??= {
  value: 0,
  blog: 0,
  views: { "product-views": 0, "written-product-views": 0, "popular-posts": 0, "popular-searches": 0 },
});

export function contentChanged(): void {
  version.value += 1;
}

export function contentVersion(): number {
  return version.value;
}

/**
 * The blog's own version: what the public blog pages show changed (a post, a category,
 * an approved comment, a like, the blog settings). Only the stored blog pages are read
 * again after it moves, so a like does not empty the catalogue's pages.
 */
export function blogChanged(): void {
  version.blog += 1;
}

export function blogVersion(): number {
  return version.blog;
}

/**
 * What moves lists ordered by views (docs/decisions/022-front-rules.md):
 * - "product-views": every product view counted (the "popular" sorts write the counted
 *   views first, so they change with each one);
 * - "written-product-views": each time counted views are written (the home page's hot
 *   products read the written counts, at most a second behind);
 * - "popular-posts": the blog's most read posts changed order;
 * - "popular-searches": the most made searches changed (a search page without results shows them).
 * An answer that shows such a list says so (answerDependsOn() in request-scope.server.ts);
 * the server's front stores it only until that version moves.
 */
export type ViewDependency = "product-views" | "written-product-views" | "popular-posts" | "popular-searches";

export function viewsMoved(kind: ViewDependency): void {
  version.views[kind] += 1;
}

export function viewsVersion(kind: ViewDependency): number {
  return version.views[kind];
}

/** Names the public post of a page for the server's front (a stored page's hit counts it: app/services/hit-counters.server.ts); never sent to browsers. */
export const BLOG_POST_ID_HEADER = "X-Blog-Post-Id";

/** Names the product of a page for the server's front (a stored page's hit counts it: app/services/hit-counters.server.ts); never sent to browsers. */
export const PRODUCT_ID_HEADER = "X-Product-Id";

/** Names the search a results page shows (URI-encoded) for the server's front (a stored page's hit counts it: app/services/hit-counters.server.ts); never sent to browsers. */
export const SEARCH_TERM_HEADER = "X-Search-Term";
