import type { Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// crawled_items: a marketplace's answer for an item, kept ten minutes for every instance
// (app/services/marketplace.server.ts, crawlItem()). Each instance also keeps its own in
// memory; this table is what lets the second instance asked for an item answer without
// reaching the marketplace again (and what a restart keeps). value is the normalised item
// as JSON; fetched_at epoch milliseconds.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("crawled_items")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("fetched_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("crawled_items_fetched_at").on("crawled_items").column("fetched_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("crawled_items").execute();
}
