/**
 * Marketplace answers kept for every instance (migration 20261129090000_crawled_items):
 * crawlItem() (app/marketplace/crawl.server.ts) reads here before it fetches and
 * writes what it fetched, so an item asked of one instance and then of another reaches
 * the marketplace once.
 */
import type { DB } from "~/lib/db.server";

/** The answer kept for `key` if fetched at or after `since` (epoch ms), as stored (JSON). */
export async function keptCrawl(db: DB, key: string, since: number): Promise<{ value: string; fetchedAt: number } | null> {
  const row = await db
    .selectFrom("crawled_items")
    .select(["value", "fetched_at"])
    .where("key", "=", key)
    .where("fetched_at", ">=", since)
    .executeTakeFirst();
  return row ? { value: row.value, fetchedAt: Number(row.fetched_at) } : null;
}

/** Keeps an answer (the newer one wins) and forgets those fetched before `before`. */
export async function keepCrawl(db: DB, key: string, value: string, fetchedAt: number, before: number): Promise<void> {
  await db
    .insertInto("crawled_items")
    .values({ key, value, fetched_at: fetchedAt })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value, fetched_at: fetchedAt }))
    .execute();
  await db.deleteFrom("crawled_items").where("fetched_at", "<", before).execute();
}
