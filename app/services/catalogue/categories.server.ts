/**
 * The catalogue's categories: the list with counts kept in memory, and their writes.
 */
import { ApiError } from "~/lib/api.server";
import { contentVersion } from "~/lib/content-version.server";
import { dataVersion, getDb, type DB } from "~/lib/db.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
import type { Access } from "~/lib/permissions";
import {
  countChildren,
  deleteCategory,
  findCategory,
  findSiblingNamed,
  insertCategory,
  listCategories,
  setSortOrders,
  updateCategory,
  type Category,
  type CategoryWithCount,
} from "~/models/category.server";
import { type Page } from "~/models/product.server";
import { CATALOGUE_MESSAGES as M, type CategoryBody } from "~/schemas/catalogue";
import type { Actor } from "../permissions.server";
import { staffWrite } from "../writes.server";
import { storefrontFilter } from "./common.server";

// ---------------------------------------------------------------- categories

const categoryCache = new Map<string, { db: DB; list: Promise<CategoryWithCount[]> }>();

/**
 * Every category with its product count, in display order, counting what the caller's
 * storefront lists show (everything for catalogue managers). Kept in memory until the
 * content changes.
 */
export async function categoriesForStorefront(access?: Access | null): Promise<CategoryWithCount[]> {
  const filter = await storefrontFilter(access);
  const db = getDb();
  const version = `${dataVersion()}:${contentVersion()}:`;
  const key = `${version}${filter.hideExternal ? 1 : 0}:${filter.listedOnly ? 1 : 0}`;
  const cached = categoryCache.get(key);
  if (cached?.db === db) return cached.list;
  // only the current version is worth keeping (for visitors and for staff: every page's header shows it)
  for (const old of categoryCache.keys()) if (!old.startsWith(version)) categoryCache.delete(old);
  const list = listCategories(db, filter);
  categoryCache.set(key, { db, list });
  list.catch(() => categoryCache.delete(key));
  return list;
}

export function categoryJson(category: Category | CategoryWithCount) {
  return {
    id: category.id,
    name: category.name,
    description: category.description,
    parent_id: category.parentId,
    sort_order: category.sortOrder,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
    ...("productCount" in category ? { product_count: category.productCount } : {}),
  };
}

export async function getCategory(id: number, db: DB = getDb()): Promise<Category> {
  const category = await findCategory(db, id);
  if (!category) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
  return category;
}

const categoryError = (field: string, message: string, status = 400) =>
  new ApiError(status, message, status === 404 ? "NOT_FOUND" : status === 409 ? "CONFLICT" : "VALIDATION_ERROR", [{ field, message }]);

/** Only top-level categories other than itself can be a parent (one level of nesting). */
async function assertParentAllowed(db: DB, parentId: number | null | undefined, selfId?: number): Promise<void> {
  if (!parentId) return;
  if (parentId === selfId) throw categoryError("parent_id", M.categoryParentInvalid);
  const parent = await findCategory(db, parentId);
  if (!parent) throw categoryError("parent_id", M.categoryNotFound);
  if (parent.parentId !== null) throw categoryError("parent_id", M.categoryParentInvalid);
  if (selfId !== undefined && (await countChildren(db, selfId)) > 0) {
    // a category with subcategories stays at the top: one level only
    throw categoryError("parent_id", M.categoryParentInvalid);
  }
}

/** Two categories side by side with one name could not be told apart in a menu or a filter. */
async function assertNameFree(db: DB, name: string, parentId: number | null, selfId?: number): Promise<void> {
  const taken = await findSiblingNamed(db, name, parentId, selfId);
  if (taken) throw categoryError("name", M.categoryNameTaken(taken.name), 409);
}

/**
 * A change to the categories' names or nesting checks the others first, then writes:
 * such changes take turns (one transaction at a time, across instances on PostgreSQL), so
 * a double submit cannot make two categories of one name, nor two moves a three-level tree.
 */
function categoryWrite<T>(work: (db: DB) => Promise<T>): Promise<T> {
  return lockedTransaction(getDb(), "categories", work);
}

export const createCategory = staffWrite(
  { requires: { permission: "product.create" }, stales: ["shop"] },
  async (body: CategoryBody, _actor: Actor): Promise<Category> => {
    const category = await categoryWrite(async (db) => {
      await assertParentAllowed(db, body.parent_id);
      await assertNameFree(db, body.name, body.parent_id ?? null);
      return insertCategory(db, {
        name: body.name,
        description: body.description ?? null,
        parentId: body.parent_id ?? null,
        sortOrder: body.sort_order ?? 0,
      });
    });
    return category;
  },
);

/** Applies the fields that differ; `changed` is false ('No changes detected.') when none do. */
export const updateCategoryByAdmin = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"], changedWhen: (answer) => answer.changed },
  async (id: number, body: Partial<CategoryBody>, _actor: Actor): Promise<{ category: Category; changed: boolean }> => {
    const answer = await categoryWrite(async (db) => {
      const current = await getCategory(id, db);
      const changes: Parameters<typeof updateCategory>[2] = {};
      if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
      if (body.description !== undefined && (body.description ?? null) !== current.description)
        changes.description = body.description ?? null;
      if (body.parent_id !== undefined && (body.parent_id ?? null) !== current.parentId) {
        await assertParentAllowed(db, body.parent_id, id);
        changes.parentId = body.parent_id ?? null;
      }
      if (body.sort_order !== undefined && body.sort_order !== current.sortOrder) changes.sortOrder = body.sort_order;
      if (Object.keys(changes).length === 0) return { category: current, changed: false };
      if (changes.name !== undefined || changes.parentId !== undefined) {
        await assertNameFree(db, changes.name ?? current.name, changes.parentId !== undefined ? changes.parentId : current.parentId, id);
      }
      return { category: (await updateCategory(db, id, changes))!, changed: true };
    });
    return answer;
  },
);

/** Deletes a category without subcategories; its products become uncategorised. */
export const deleteCategoryByAdmin = staffWrite(
  { requires: { permission: "product.delete" }, stales: ["shop"] },
  async (id: number, _actor: Actor): Promise<void> => {
    await categoryWrite(async (db) => {
      await getCategory(id, db);
      if ((await countChildren(db, id)) > 0) throw new ApiError(409, M.categoryHasChildren, "CONFLICT");
      await deleteCategory(db, id);
    });
  },
);

/** Sets many sort orders at once (move up/down, inline values): all or nothing. */
export const batchSortCategories = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"] },
  async (entries: Array<{ id: number; sort_order: number }>, _actor: Actor): Promise<number> => {
    const updated = await categoryWrite((db) => sortCategoriesIn(db, entries));
    return updated;
  },
);

async function sortCategoriesIn(db: DB, entries: Array<{ id: number; sort_order: number }>): Promise<number> {
  const known = new Set((await listCategories(db)).map((c) => c.id));
  const unknown = entries.find((entry) => !known.has(entry.id));
  if (unknown) throw new ApiError(404, `${M.categoryNotFound}: ${unknown.id}`, "NOT_FOUND");
  return setSortOrders(
    db,
    entries.map((e) => ({ id: e.id, sortOrder: e.sort_order })),
  );
}

/** The back office's category list: a name search, a page, each with its parent's name and product count. */
export async function adminCategoryPage(options: {
  q: string;
  page: number;
  limit: number;
}): Promise<Page<CategoryWithCount & { parentName: string | null }>> {
  const all = await listCategories(getDb());
  const names = new Map(all.map((category) => [category.id, category.name]));
  const matching = all.filter((category) => matchesCategorySearch(category, options.q));
  const totalPages = Math.max(1, Math.ceil(matching.length / options.limit));
  const page = Math.min(Math.max(1, options.page), totalPages);
  const items = matching.slice((page - 1) * options.limit, page * options.limit).map((category) => ({
    ...category,
    parentName: category.parentId ? (names.get(category.parentId) ?? null) : null,
  }));
  return { items, totalItems: matching.length, page, limit: options.limit, totalPages };
}

/** How many subcategories a category has (one with any stays at the top level and cannot be deleted). */
export async function subcategoryCount(id: number): Promise<number> {
  return countChildren(getDb(), id);
}

/** The categories a category may be placed under: top-level ones other than itself (none when it has subcategories). */
export async function parentChoices(forCategoryId?: number): Promise<Category[]> {
  const all = await listCategories(getDb());
  if (forCategoryId !== undefined && all.some((category) => category.parentId === forCategoryId)) return [];
  return all.filter((category) => category.parentId === null && category.id !== forCategoryId);
}

const matchesCategorySearch = (category: Category, q: string) => {
  const needle = q.trim().toLowerCase();
  return !needle || category.name.toLowerCase().includes(needle) || (category.description ?? "").toLowerCase().includes(needle);
};

/**
 * Moves a category one place up or down past its neighbour in the list as the admin sees
 * it (the display order, narrowed by the list's search `q`). Swaps the two sort values,
 * or, when they are equal, numbers the whole list afresh (0, 10, 20, ...) with the
 * category placed next to its neighbour. False when it is already first or last.
 */
export const moveCategory = staffWrite(
  { requires: { permission: "product.edit" }, stales: ["shop"], changedWhen: (moved) => moved },
  async (id: number, direction: "up" | "down", q: string, _actor: Actor): Promise<boolean> => {
    // read and written in one turn (categoryWrite): two moves made at the same moment both
    // count, neither numbers the list from what the other changed
    const moved = await categoryWrite(async (db) => {
      const all = await listCategories(db);
      const self = all.find((category) => category.id === id);
      if (!self) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
      const shown = all.filter((category) => category.id === id || matchesCategorySearch(category, q));
      const index = shown.indexOf(self);
      const neighbour = shown[index + (direction === "up" ? -1 : 1)];
      if (!neighbour) return false;
      if (self.sortOrder !== neighbour.sortOrder) {
        await sortCategoriesIn(db, [
          { id: self.id, sort_order: neighbour.sortOrder },
          { id: neighbour.id, sort_order: self.sortOrder },
        ]);
        return true;
      }
      const order = all.filter((category) => category.id !== id);
      const at = order.indexOf(neighbour) + (direction === "up" ? 0 : 1);
      order.splice(at, 0, self);
      await sortCategoriesIn(
        db,
        order.map((category, position) => ({ id: category.id, sort_order: position * 10 })),
      );
      return true;
    });
    return moved;
  },
);
