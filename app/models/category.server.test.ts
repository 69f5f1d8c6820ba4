/**
 * The header's category counts come from category_counts, kept by triggers on products
 * (migration 20261201090000): after every kind of change they equal a fresh count of the
 * products, on SQLite and PostgreSQL alike.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { deleteCategory, insertCategory, listCategories } from "./category.server";
import { insertProduct, updateProduct } from "./product.server";

type Filter = { hideExternal?: boolean; listedOnly?: boolean };
const FILTERS: Filter[] = [{}, { listedOnly: true }, { hideExternal: true }, { hideExternal: true, listedOnly: true }];

/** The counts listCategories() gives, and the same counted afresh from the products. */
async function countsBothWays(filter: Filter) {
  const db = getDb();
  const listed = await listCategories(db, filter);
  const { rows } = await sql<{ id: number; n: number }>`
    SELECT c.id, (SELECT count(*) FROM products p
      WHERE (p.category_id = c.id OR p.category_id IN (SELECT s.id FROM categories s WHERE s.parent_id = c.id))
        ${filter.hideExternal ? sql`AND p.is_external = 0` : sql``} ${filter.listedOnly ? sql`AND p.show_in_listing = 1` : sql``}) AS n
    FROM categories c ORDER BY c.sort_order, c.id`.execute(db);
  return {
    kept: listed.map((category) => [category.id, category.productCount]),
    fresh: rows.map((row) => [Number(row.id), Number(row.n)]),
  };
}

async function expectCountsRight(step: string) {
  for (const filter of FILTERS) {
    const { kept, fresh } = await countsBothWays(filter);
    expect(kept, `${step} ${JSON.stringify(filter)}`).toEqual(fresh);
  }
}

describe("the category counts", () => {
  it("follow products as they are added, moved, flagged, deleted, and as categories go", async () => {
    const db = getDb();
    const tag = `counts-${Date.now()}`;
    const parent = await insertCategory(db, { name: `${tag} parent`, description: null, parentId: null, sortOrder: 900 });
    const child = await insertCategory(db, { name: `${tag} child`, description: null, parentId: parent.id, sortOrder: 901 });
    const other = await insertCategory(db, { name: `${tag} other`, description: null, parentId: null, sortOrder: 902 });
    await expectCountsRight("empty categories");

    const made = [];
    for (let i = 0; i < 12; i++) {
      const categoryId = [parent.id, child.id, other.id, null][i % 4];
      made.push(
        await insertProduct(
          db,
          { name: `${tag} ${i}`, categoryId, isExternal: i % 3 === 0, showInListing: i % 5 !== 0, priceCny: 10 + i },
          [],
          null,
        ),
      );
    }
    await expectCountsRight("added");

    await updateProduct(db, made[0].id, { categoryId: other.id }, undefined);
    await updateProduct(db, made[1].id, { categoryId: null }, undefined);
    await updateProduct(db, made[3].id, { categoryId: child.id }, undefined);
    await updateProduct(db, made[2].id, { isExternal: true, showInListing: false }, undefined);
    await updateProduct(db, made[5].id, { showInListing: true }, undefined);
    await updateProduct(db, made[6].id, { name: `${tag} renamed` }, undefined);
    await expectCountsRight("moved and flagged");

    await db.deleteFrom("products").where("id", "in", [made[7].id, made[8].id]).execute();
    await expectCountsRight("deleted");

    // the products of a deleted category are left without one (ON DELETE SET NULL)
    await deleteCategory(db, child.id);
    await expectCountsRight("a category deleted");
    const gone = await db
      .selectFrom("category_counts")
      .select((eb) => eb.fn.sum<number>("products").as("n"))
      .where("category_id", "=", child.id)
      .executeTakeFirst();
    expect(Number(gone?.n ?? 0)).toBe(0);
  });
});
