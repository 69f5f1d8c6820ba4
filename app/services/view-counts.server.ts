/**
 * Product views, counted in memory and written in one transaction a second later
 * (docs/decisions/013-fast-lane.md, docs/stored-pages.md): a write per page view would cost more than serving
 * a stored page. Reads stay exact: a product read adds the views not yet written, and
 * every list that shows or orders by views writes them first (flushViews()).
 *
 * On PostgreSQL, where several instances answer, a view is written before its answer
 * goes (writeViewsNow()): the views another instance holds in memory are not seen by
 * this one, so none may be held past its answer. Views counted at the same moment still
 * go in one transaction.
 *
 * Kept on globalThis: the server's front and the Remix build each hold a copy of this
 * module, and both must count into the same place.
 */
import { viewsMoved } from "~/lib/content-version.server";
import { requestScope } from "~/lib/request-scope.server";
import { getDb } from "~/lib/db.server";
import { onPostgres } from "~/models/sql-dialect.server";
import { log } from "~/lib/log.server";
import { addViewCounts } from "~/models/product.server";

const FLUSH_DELAY_MS = 1000;

/** A live count of the views of one product counted by this process (see watchViews()). */
export type ViewWatch = { count: number; watchers: number };

type State = {
  pending: Map<number, number>;
  watched: Map<number, ViewWatch>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
};

declare global {
  var __productViews: State | undefined;
}

const state: State = (globalThis.__productViews ??= { pending: new Map(), watched: new Map(), timer: null, flushing: null });

/** Counts one view of a product (written within a second). */
export function countProductView(productId: number): void {
  viewsMoved("product-views");
  const scope = requestScope.getStore();
  if (scope) scope.viewsCounted = (scope.viewsCounted ?? 0) + 1;
  state.pending.set(productId, (state.pending.get(productId) ?? 0) + 1);
  const watch = state.watched.get(productId);
  if (watch) watch.count += 1;
  if (!state.timer) {
    state.timer = setTimeout(() => void flushViews(), FLUSH_DELAY_MS);
    state.timer.unref();
  }
}

/**
 * A counter of the views of a product counted from now on, by any path (the answers stored
 * by the server's front add them to the count they stored). Release it with unwatchViews().
 */
export function watchViews(productId: number): ViewWatch {
  let watch = state.watched.get(productId);
  if (!watch) state.watched.set(productId, (watch = { count: 0, watchers: 0 }));
  watch.watchers += 1;
  return watch;
}

export function unwatchViews(productId: number): void {
  const watch = state.watched.get(productId);
  if (watch && --watch.watchers <= 0) state.watched.delete(productId);
}

/** Views of a product counted but not written yet. */
export function unwrittenViews(productId: number): number {
  return state.pending.get(productId) ?? 0;
}

/** Writes the counted views now (lists ordered by views call it first; so does shutdown). */
export async function flushViews(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = null;
  }
  // a flush under way is waited for, so a caller always sees its views written
  if (state.flushing) await state.flushing;
  if (!state.pending.size) return;
  const batch = state.pending;
  state.pending = new Map();
  state.flushing = addViewCounts(getDb(), batch)
    .then(() => viewsMoved("written-product-views"))
    .catch((error) => {
      // kept for the next flush rather than lost
      for (const [id, count] of batch) state.pending.set(id, (state.pending.get(id) ?? 0) + count);
      log.warn(`product views: writing ${batch.size} counts failed, kept for the next try: ${(error as Error).message}`);
    })
    .finally(() => {
      state.flushing = null;
    });
  await state.flushing;
}

/** Whether views are written before their answers go (PostgreSQL: several instances read the counts). */
export function viewsWrittenAtOnce(): boolean {
  return onPostgres(getDb());
}

/**
 * On PostgreSQL, writes the views counted so far, this caller's among them, before the
 * answer goes; on SQLite nothing (one process holds the counts and reads add them).
 */
export async function writeViewsNow(): Promise<void> {
  if (!viewsWrittenAtOnce()) return;
  await flushViews();
  // a flush started by another caller may hold this caller's view: it is the one in flight
  if (state.flushing) await state.flushing;
}
