import type { Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// QC photos of one option (issue 39, docs/decisions/048-shoppers-comparisons.md): the SKU a
// QC set shows, by its name (a product's SKU names are unique and stay when the product is
// edited; their ids do not: the editor writes the SKUs anew). Null: the product as a whole.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("qc_images").addColumn("sku_name", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("qc_images").dropColumn("sku_name").execute();
}
