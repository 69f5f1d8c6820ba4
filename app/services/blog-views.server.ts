/**
 * Views of blog posts: not for crawlers (or incrementView=false), and once per reader
 * (the user, else the address and browser) and post in 30 minutes, so reloads and a
 * page's own revalidation after a like or a comment do not count again. The readers seen
 * are kept in memory (so a reader's reloads cost nothing) and in the database (rate_limits,
 * swept with the other windows), so several instances count a reader once between them.
 *
 * Counted by the post page's loader, by PUT /api/blog/posts/:id/view, and by the
 * server's front when it answers the post page from its store (app/services/hit-counters.server.ts):
 * the server and the Remix build each load this module, so the readers seen are kept on
 * globalThis, shared by both.
 */
import crypto from "node:crypto";
import { blogVersion, viewsMoved } from "~/lib/content-version.server";
import { getDb } from "~/lib/db.server";
import { countsAsView } from "~/lib/crawlers";
import { addPostView, popularPostIds } from "~/models/blog.server";
import { addHit } from "~/models/rate-limit.server";
import { BLOG_SIDE_LIST_SIZE } from "~/schemas/blog-rules";

const VIEW_WINDOW_MS = 30 * 60_000;
const VIEW_KEYS_MAX = 50_000;

declare global {
  var __blogRecentViews: Map<string, number> | undefined;
  var __popularPosts: { ids: string; blogVersion: number } | undefined;
}

export type PostViewer = { userAgent: string | null; incrementView: string | null; clientIp: string; userId: number | null };

/** Counts a view of the post when it is one (see above); true when counted. */
export async function countPostViewBy(postId: number, viewer: PostViewer): Promise<boolean> {
  if (!countsAsView(viewer.userAgent, viewer.incrementView)) return false;
  const recentViews = (globalThis.__blogRecentViews ??= new Map());
  const key = `${postId}|${viewer.userId ?? `${viewer.clientIp}|${viewer.userAgent ?? ""}`}`;
  const at = Date.now();
  const seen = recentViews.get(key);
  if (seen !== undefined && at - seen < VIEW_WINDOW_MS) return false;
  recentViews.delete(key);
  recentViews.set(key, at);
  if (recentViews.size > VIEW_KEYS_MAX) recentViews.delete(recentViews.keys().next().value!);
  // this instance has not seen the reader lately; another behind the same proxy may have:
  // the readers are also kept in the database, where the first to count one wins
  const reader = crypto.createHash("sha256").update(key).digest("base64url").slice(0, 22);
  if ((await addHit(getDb(), `blog-view:${reader}`, VIEW_WINDOW_MS, at)).count > 1) return false;
  await addPostView(getDb(), postId);
  await popularPostsMayHaveMoved();
  return true;
}

/**
 * After a view: when the blog's popular list (every public blog page shows it) changed
 * order, the pages stored by the server's front are dropped ("popular-posts"). Most views
 * move nothing, so the pages stay stored.
 */
async function popularPostsMayHaveMoved(): Promise<void> {
  const version = blogVersion();
  let ids: string;
  try {
    ids = (await popularPostIds(getDb(), BLOG_SIDE_LIST_SIZE)).join(",");
  } catch {
    viewsMoved("popular-posts");
    return;
  }
  const known = globalThis.__popularPosts;
  if (!known || known.ids !== ids || known.blogVersion !== version) viewsMoved("popular-posts");
  globalThis.__popularPosts = { ids, blogVersion: version };
}
