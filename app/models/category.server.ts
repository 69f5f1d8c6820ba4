/** Shop categories: one level of parents, ordered by sort_order (smaller first). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";

export type Category = {
  id: number;
  name: string;
  description: string | null;
  parentId: number | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
};

export type CategoryWithCount = Category & { productCount: number };

type Row = {
  id: number;
  name: string;
  description: string | null;
  parent_id: number | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
};

const toCategory = (row: Row): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  parentId: row.parent_id,
  sortOrder: row.sort_order,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * Every category with the number of products its page lists (those filed under it or
 * under one of its subcategories), in display order; with a filter, only the products a
 * storefront list would show are counted.
 */
export async function listCategories(db: DB, counted: { hideExternal?: boolean; listedOnly?: boolean } = {}): Promise<CategoryWithCount[]> {
  // the counts the triggers on products keep (category_counts: a few rows per category,
  // by the two flags), never a pass over the products (0.99 s at 1,000,000, issue 37); a
  // category then adds its direct subcategories' counts, worked out once (MATERIALIZED:
  // SQLite and PostgreSQL 12+) for both lookups
  const conditions = [sql`true`];
  if (counted.hideExternal) conditions.push(sql`k.is_external = 0`);
  if (counted.listedOnly) conditions.push(sql`k.show_in_listing = 1`);
  const { rows } = await sql<Row & { product_count: number }>`
    WITH counts AS MATERIALIZED (SELECT k.category_id, sum(k.products) AS n FROM category_counts k WHERE ${sql.join(conditions, sql` AND `)} GROUP BY k.category_id)
    SELECT c.*,
      coalesce((SELECT k.n FROM counts k WHERE k.category_id = c.id), 0)
        + coalesce((SELECT sum(k.n) FROM counts k JOIN categories sub ON sub.id = k.category_id WHERE sub.parent_id = c.id), 0) AS product_count
    FROM categories c ORDER BY c.sort_order, c.id`.execute(db);
  return rows.map((row) => ({ ...toCategory(row), productCount: Number(row.product_count) }));
}

export async function findCategory(db: DB, id: number): Promise<Category | undefined> {
  const row = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toCategory(row);
}

/** The category and its direct subcategories (their products belong to it on the storefront). */
export async function categoryWithChildren(db: DB, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom("categories")
    .select("id")
    .where((eb) => eb.or([eb("id", "=", id), eb("parent_id", "=", id)]))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A category under the same parent (or at the top) whose name is `name`, ignoring case and
 * surrounding spaces; `exceptId` is left out (the category being renamed).
 */
export async function findSiblingNamed(db: DB, name: string, parentId: number | null, exceptId?: number): Promise<Category | undefined> {
  const { rows } = await sql<Row>`
    SELECT * FROM categories
    WHERE parent_id IS NOT DISTINCT FROM ${parentId} AND lower(trim(name)) = lower(trim(${name})) AND id IS DISTINCT FROM ${exceptId ?? null}
    LIMIT 1`.execute(db);
  return rows[0] && toCategory(rows[0]);
}

export async function insertCategory(
  db: DB,
  input: { name: string; description: string | null; parentId: number | null; sortOrder: number },
): Promise<Category> {
  const row = await db
    .insertInto("categories")
    .values({ name: input.name, description: input.description, parent_id: input.parentId, sort_order: input.sortOrder })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toCategory(row);
}

export async function updateCategory(
  db: DB,
  id: number,
  changes: Partial<{ name: string; description: string | null; parentId: number | null; sortOrder: number }>,
): Promise<Category | undefined> {
  const row = await db
    .updateTable("categories")
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
      ...(changes.sortOrder !== undefined ? { sort_order: changes.sortOrder } : {}),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toCategory(row);
}

export async function countChildren(db: DB, id: number): Promise<number> {
  const row = await db
    .selectFrom("categories")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteCategory(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("categories").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sets many sort orders in one transaction (the caller opens it). */
export async function setSortOrders(db: DB, entries: Array<{ id: number; sortOrder: number }>): Promise<number> {
  let changed = 0;
  const now = new Date().toISOString();
  for (const entry of entries) {
    const result = await db
      .updateTable("categories")
      .set({ sort_order: entry.sortOrder, updated_at: now })
      .where("id", "=", entry.id)
      .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
  }
  return changed;
}
