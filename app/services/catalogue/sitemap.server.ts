/**
 * The catalogue's pages for the sitemap: its categories, and its products in blocks.
 */
import { getDb } from "~/lib/db.server";
import { listCategories } from "~/models/category.server";
import { productIdBlocks, productStampsInBlock } from "~/models/product.server";
import type { SitemapProducts, SitemapSource } from "../sitemap.server";
import { productPath, storefrontFilter } from "./common.server";

// ---------------------------------------------------------------- sitemap

/** The catalogue's pages for the sitemap: its categories (the products come in blocks, below). */
export const catalogueSitemapSources: SitemapSource[] = [
  {
    name: "categories",
    entries: async () =>
      (await listCategories(getDb())).map((category) => ({
        path: `/category/${category.id}`,
        lastmod: category.updatedAt.slice(0, 10),
        changefreq: "daily" as const,
        priority: 0.7,
      })),
  },
];

/** Every product a visitor may find (the storefront's rules), in blocks of ids. */
export const catalogueSitemapProducts: SitemapProducts = {
  blocks: async (size) => productIdBlocks(getDb(), await storefrontFilter(null), size),
  entries: async (block, size) =>
    (await productStampsInBlock(getDb(), await storefrontFilter(null), block, size)).map((product) => ({
      path: productPath(product),
      lastmod: product.updatedAt.slice(0, 10),
      changefreq: "weekly" as const,
      priority: 0.8,
    })),
};
