/**
 * The blog's settings: comments on or off, their moderation, posts per page.
 */
import { getDb, type DB } from "~/lib/db.server";
import { getBlogSettingsRow, saveBlogSettingsRow, type BlogSettingsRow } from "~/models/blog.server";
import { type BlogSettingsBody } from "~/schemas/blog";
import type { Actor } from "../permissions.server";
import { staffWrite } from "../writes.server";

const db = (): DB => getDb();

// ---------------------------------------------------------------- settings

export type BlogSettings = Omit<BlogSettingsRow, "updatedAt">;

export async function loadBlogSettings(): Promise<BlogSettings> {
  const { updatedAt: _updatedAt, ...settings } = await getBlogSettingsRow(db());
  return settings;
}

export const blogSettingsJson = (settings: BlogSettings) => ({
  comments_enabled: settings.commentsEnabled,
  comment_moderation: settings.commentModeration,
  posts_per_page: settings.postsPerPage,
});

async function saveBlogSettingsWrite(body: BlogSettingsBody, _actor: Actor): Promise<BlogSettings> {
  await saveBlogSettingsRow(db(), {
    commentsEnabled: body.comments_enabled,
    commentModeration: body.comment_moderation,
    postsPerPage: body.posts_per_page,
  });
  return loadBlogSettings();
}

export const saveBlogSettings = staffWrite({ requires: { permission: "blog.edit" }, stales: ["blog"] }, saveBlogSettingsWrite);
