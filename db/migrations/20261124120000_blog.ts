import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Frozen: never edit once landed, never import app code.
// The blog: categories (a tree), posts (sanitised HTML plus its plain text for search and
// reading time), tags, comments with moderation, likes on posts and comments (one per
// user), and the blog settings (one row). blog_posts_fts (FTS5, trigram: Chinese has no
// spaces) indexes title, excerpt and the plain text, kept in step by triggers.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("blog_categories")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text")
    // any depth; the application keeps it a tree (never its own ancestor)
    .addColumn("parent_id", "integer", (c) => c.references("blog_categories.id").onDelete("set null"))
    .addColumn("display_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_visible", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("blog_categories_parent").on("blog_categories").columns(["parent_id", "display_order", "id"]).execute();

  await db.schema
    .createTable("blog_posts")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("excerpt", "text")
    // sanitised HTML (the server's allowlist, applied on every save)
    .addColumn("content", "text", (c) => c.notNull())
    // the content without tags: what search and the reading time read
    .addColumn("content_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("category_id", "integer", (c) => c.references("blog_categories.id").onDelete("set null"))
    .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`status IN ('draft', 'published', 'scheduled', 'archived', 'private')`),
    )
    .addColumn("is_featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_pinned", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reading_time", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("featured_image", "text")
    .addColumn("meta_title", "text")
    .addColumn("meta_description", "text")
    .addColumn("view_count", "integer", (c) => c.notNull().defaultTo(0))
    // ISO date: when it went (or, scheduled, goes) live
    .addColumn("published_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("blog_posts_status_published").on("blog_posts").columns(["status", "published_at", "id"]).execute();
  await db.schema.createIndex("blog_posts_category").on("blog_posts").columns(["category_id", "published_at"]).execute();
  await db.schema.createIndex("blog_posts_views").on("blog_posts").columns(["view_count", "id"]).execute();
  await db.schema.createIndex("blog_posts_author").on("blog_posts").column("author_id").execute();

  await db.schema
    .createTable("blog_tags")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  if (isPostgres(db)) await sql`CREATE UNIQUE INDEX blog_tags_name ON blog_tags (lower(name))`.execute(db);
  else await sql`CREATE UNIQUE INDEX blog_tags_name ON blog_tags (name COLLATE NOCASE)`.execute(db);

  await db.schema
    .createTable("blog_post_tags")
    .addColumn("post_id", "integer", (c) => c.notNull().references("blog_posts.id").onDelete("cascade"))
    .addColumn("tag_id", "integer", (c) => c.notNull().references("blog_tags.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("blog_post_tags_pk", ["post_id", "tag_id"])
    .execute();
  await db.schema.createIndex("blog_post_tags_tag").on("blog_post_tags").columns(["tag_id", "post_id"]).execute();

  await db.schema
    .createTable("blog_comments")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("post_id", "integer", (c) => c.notNull().references("blog_posts.id").onDelete("cascade"))
    // a reply; deleting a comment deletes its replies
    .addColumn("parent_id", "integer", (c) => c.references("blog_comments.id").onDelete("cascade"))
    // a person's comments go with their account
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // sanitised HTML: p, br, a, blockquote
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'approved', 'rejected', 'spam')`),
    )
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("blog_comments_post").on("blog_comments").columns(["post_id", "status", "created_at"]).execute();
  await db.schema.createIndex("blog_comments_status").on("blog_comments").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("blog_comments_user").on("blog_comments").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("blog_comments_parent").on("blog_comments").column("parent_id").execute();

  for (const [table, target, column] of [
    ["blog_post_likes", "blog_posts", "post_id"],
    ["blog_comment_likes", "blog_comments", "comment_id"],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(column, "integer", (c) => c.notNull().references(`${target}.id`).onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("type", "text", (c) => c.notNull().defaultTo("like"))
      .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint(`${table}_pk`, [column, "user_id"])
      .execute();
    await db.schema.createIndex(`${table}_user`).on(table).column("user_id").execute();
  }

  await db.schema
    .createTable("blog_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("comments_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("comment_moderation", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("posts_per_page", "integer", (c) => c.notNull().defaultTo(10))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`INSERT INTO blog_settings (id) VALUES (1)`.execute(db);

  if (isPostgres(db)) {
    // the same search with pg_trgm: a trigram index over the lowercased text that
    // blog_posts_fts holds (searched with LIKE '%term%', app/models/blog.server.ts)
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX blog_posts_search ON blog_posts
      USING gin (lower(title || ' ' || coalesce(excerpt, '') || ' ' || content_text) gin_trgm_ops)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE blog_posts_fts USING fts5(
      title, excerpt, content_text, content='blog_posts', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER blog_posts_search_insert AFTER INSERT ON blog_posts BEGIN
      INSERT INTO blog_posts_fts (rowid, title, excerpt, content_text)
        VALUES (new.id, new.title, coalesce(new.excerpt, ''), new.content_text);
    END`.execute(db);
    await sql`CREATE TRIGGER blog_posts_search_delete AFTER DELETE ON blog_posts BEGIN
      INSERT INTO blog_posts_fts (blog_posts_fts, rowid, title, excerpt, content_text)
        VALUES ('delete', old.id, old.title, coalesce(old.excerpt, ''), old.content_text);
    END`.execute(db);
    await sql`CREATE TRIGGER blog_posts_search_update AFTER UPDATE OF title, excerpt, content_text ON blog_posts BEGIN
      INSERT INTO blog_posts_fts (blog_posts_fts, rowid, title, excerpt, content_text)
        VALUES ('delete', old.id, old.title, coalesce(old.excerpt, ''), old.content_text);
      INSERT INTO blog_posts_fts (rowid, title, excerpt, content_text)
        VALUES (new.id, new.title, coalesce(new.excerpt, ''), new.content_text);
    END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of isPostgres(db) ? [] : ["blog_posts_search_insert", "blog_posts_search_delete", "blog_posts_search_update"]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
  }
  for (const table of [
    "blog_posts_fts",
    "blog_settings",
    "blog_comment_likes",
    "blog_post_likes",
    "blog_comments",
    "blog_post_tags",
    "blog_tags",
    "blog_posts",
    "blog_categories",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
