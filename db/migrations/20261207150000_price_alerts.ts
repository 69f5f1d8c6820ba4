import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// "Tell me when it drops" (issue 39, docs/decisions/048-shoppers-comparisons.md): a signed-in
// shopper's wish to hear of a product's lower price. `price_fen` is the price they were last
// told of (when they asked, then at each drop mailed); `language` the one they read the site
// in when they asked (the mail's).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("price_alerts")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("price_fen", "integer", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("notified_at", "text")
    .execute();
  await db.schema.createIndex("price_alerts_user_product").unique().on("price_alerts").columns(["user_id", "product_id"]).execute();
  await db.schema.createIndex("price_alerts_product").on("price_alerts").columns(["product_id", "price_fen"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("price_alerts").execute();
}
