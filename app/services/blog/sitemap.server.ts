/**
 * The blog's dashboard counts and its pages for the sitemap.
 */
import { getDb, type DB } from "~/lib/db.server";
import { dashboardCounts, listTags, publicPostStamps } from "~/models/blog.server";
import type { SitemapSource } from "../sitemap.server";
import { listCategoriesFor } from "./categories.server";

const db = (): DB => getDb();
const now = () => new Date().toISOString();

// ---------------------------------------------------------------- dashboard

/** The dashboard's blog box: public posts and comments waiting (one query). */
export function blogDashboardCounts(): Promise<{ published: number; pendingComments: number }> {
  return dashboardCounts(db(), now());
}

// ---------------------------------------------------------------- sitemap

const SITEMAP_POSTS_MAX = 5_000;

/** The blog's public URLs for /sitemap.xml: the blog, its posts, visible categories and used tags. */
export const blogSitemapSources: SitemapSource[] = [
  {
    name: "blog",
    entries: async () => {
      const posts = await publicPostStamps(db(), SITEMAP_POSTS_MAX);
      return [
        { path: "/blog", lastmod: posts[0]?.updatedAt.slice(0, 10), changefreq: "daily" as const, priority: 0.7 },
        ...posts.map((post) => ({
          path: `/blog/${encodeURIComponent(post.slug)}`,
          lastmod: post.updatedAt.slice(0, 10),
          changefreq: "weekly" as const,
          priority: 0.6,
        })),
      ];
    },
  },
  {
    name: "blog-taxonomy",
    entries: async () => {
      const [categories, tags] = await Promise.all([listCategoriesFor(null), listTags(db())]);
      return [
        ...categories.map((category) => ({
          path: `/blog/category/${encodeURIComponent(category.slug)}`,
          changefreq: "weekly" as const,
          priority: 0.4,
        })),
        ...tags
          .filter((tag) => tag.postCount > 0)
          .map((tag) => ({ path: `/blog/tag/${encodeURIComponent(tag.slug)}`, changefreq: "weekly" as const, priority: 0.3 })),
      ];
    },
  },
];
