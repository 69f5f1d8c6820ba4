/**
 * The blog's categories and tags.
 */
import { ApiError } from "~/lib/api.server";
import { slugFromName, uniqueSlug } from "~/lib/blog-text";
import { getDb, type DB } from "~/lib/db.server";
import type { Access } from "~/lib/permissions";
import {
  deleteBlogCategory,
  findBlogCategory,
  insertBlogCategory,
  listBlogCategories,
  listTags,
  slugsLike,
  updateBlogCategory,
  type BlogCategory,
  type BlogTagWithCount,
} from "~/models/blog.server";
import { BLOG_MESSAGES as M, type BlogCategoryBody } from "~/schemas/blog";
import type { Actor } from "../permissions.server";
import { staffWrite } from "../writes.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
import { fieldError, worksOnBlog } from "./common.server";

const db = (): DB => getDb();

// ---------------------------------------------------------------- categories

/** A category's id and those of everything below it. */
export function descendantIds(all: BlogCategory[], id: number, includeSelf: boolean): number[] {
  const ids: number[] = includeSelf ? [id] : [];
  const queue = [id];
  const seen = new Set(queue);
  while (queue.length) {
    const parent = queue.shift()!;
    for (const child of all) {
      if (child.parentId === parent && !seen.has(child.id)) {
        seen.add(child.id);
        ids.push(child.id);
        queue.push(child.id);
      }
    }
  }
  return ids;
}

export type CategoryNode = BlogCategory & { depth: number; children: CategoryNode[] };

/** The categories as a tree, each level in display order. */
export function categoryTree(all: BlogCategory[]): CategoryNode[] {
  const known = new Set(all.map((c) => c.id));
  const build = (parentId: number | null, depth: number, path: Set<number>): CategoryNode[] =>
    all
      .filter((c) => (parentId === null ? c.parentId === null || !known.has(c.parentId) : c.parentId === parentId) && !path.has(c.id))
      .map((c) => ({ ...c, depth, children: build(c.id, depth + 1, new Set([...path, c.id])) }));
  return build(null, 0, new Set());
}

/** The tree flattened in display order (what a select or an indented list shows). */
export function flattenTree(nodes: CategoryNode[]): CategoryNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children)]);
}

/** Categories for a caller: visitors see the visible ones, blog staff all. */
export async function listCategoriesFor(access?: Access | null): Promise<BlogCategory[]> {
  const all = await listBlogCategories(db());
  return worksOnBlog(access) ? all : all.filter((category) => category.isVisible && !hasHiddenAncestor(all, category));
}

function hasHiddenAncestor(all: BlogCategory[], category: BlogCategory): boolean {
  const byId = new Map(all.map((c) => [c.id, c]));
  let parent = category.parentId !== null ? byId.get(category.parentId) : undefined;
  const seen = new Set<number>();
  while (parent && !seen.has(parent.id)) {
    if (!parent.isVisible) return true;
    seen.add(parent.id);
    parent = parent.parentId !== null ? byId.get(parent.parentId) : undefined;
  }
  return false;
}

export async function getBlogCategory(id: number, from: DB = db()): Promise<BlogCategory> {
  const category = await findBlogCategory(from, { id });
  if (!category) throw new ApiError(404, M.categoryNotFound, "NOT_FOUND");
  return category;
}

async function freeCategorySlug(trx: DB, base: string, exceptId?: number): Promise<string> {
  return uniqueSlug(base, await slugsLike(trx, "blog_categories", base, exceptId));
}

/** A parent must exist, and (on edit) be neither the category itself nor below it. */
async function assertParent(trx: DB, parentId: number | null | undefined, selfId?: number): Promise<void> {
  if (!parentId) return;
  if (parentId === selfId) throw fieldError(400, "parent_id", M.categoryOwnParent);
  const all = await listBlogCategories(trx);
  if (!all.some((c) => c.id === parentId)) throw fieldError(400, "parent_id", M.categoryNotFound);
  if (selfId !== undefined && descendantIds(all, selfId, false).includes(parentId))
    throw fieldError(400, "parent_id", M.categoryUnderDescendant);
}

/**
 * A change to the blog categories' slugs or nesting checks the others first, then writes:
 * such changes take turns (across instances on PostgreSQL; decision 030), so a double
 * submit cannot take one slug twice, nor two crossing moves make a loop.
 */
function blogCategoryWrite<T>(work: (trx: DB) => Promise<T>): Promise<T> {
  return lockedTransaction(db(), "blog-categories", work);
}

async function createBlogCategoryWrite(body: BlogCategoryBody, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    await assertParent(trx, body.parent_id);
    const base = (body.slug ? slugFromName(body.slug) : "") || slugFromName(body.name) || "category";
    const id = await insertBlogCategory(trx, {
      name: body.name,
      slug: await freeCategorySlug(trx, base),
      description: body.description ?? null,
      parentId: body.parent_id ?? null,
      displayOrder: body.display_order ?? 0,
      isVisible: body.is_visible ?? true,
    });
    return getBlogCategory(id, trx);
  });
}

async function updateBlogCategoryByAdminWrite(id: number, body: Partial<BlogCategoryBody>, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    const current = await getBlogCategory(id, trx);
    if (body.parent_id !== undefined) await assertParent(trx, body.parent_id, id);
    let slug: string | undefined;
    if (body.slug !== undefined) {
      const base = (body.slug ? slugFromName(body.slug) : "") || slugFromName(body.name ?? current.name) || "category";
      if (base !== current.slug) slug = await freeCategorySlug(trx, base, id);
    }
    await updateBlogCategory(trx, id, {
      name: body.name,
      slug,
      description: body.description !== undefined ? (body.description ?? null) : undefined,
      parentId: body.parent_id !== undefined ? (body.parent_id ?? null) : undefined,
      displayOrder: body.display_order,
      isVisible: body.is_visible,
    });
    return getBlogCategory(id, trx);
  });
}

/** Deletes a category: its subcategories move up to its parent, its posts become uncategorised. */
async function deleteBlogCategoryByAdminWrite(id: number, _actor: Actor): Promise<BlogCategory> {
  return blogCategoryWrite(async (trx) => {
    const category = await getBlogCategory(id, trx);
    await deleteBlogCategory(trx, id, category.parentId);
    return category;
  });
}

// ---------------------------------------------------------------- tags

/** Tags with their public post counts (those without public posts too: the API lists every tag). */
export function listTagsWithCounts(): Promise<BlogTagWithCount[]> {
  return listTags(db());
}

export const createBlogCategory = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  createBlogCategoryWrite,
);

export const updateBlogCategoryByAdmin = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  updateBlogCategoryByAdminWrite,
);

export const deleteBlogCategoryByAdmin = staffWrite(
  { requires: { permission: "blog.manage_categories" }, stales: ["blog"] },
  deleteBlogCategoryByAdminWrite,
);
