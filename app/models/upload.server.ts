/** Files stored under UPLOADS_DIR, each with the user it was issued to. */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { jsonArrayElements } from "./sql-dialect.server";
import type { UploadKind } from "../../db/schema";

export type { UploadKind };

export type StoredUpload = {
  id: number;
  /** relative to UPLOADS_DIR */
  path: string;
  /** what pages and the API show: /uploads/<path> */
  url: string;
  kind: UploadKind;
  ownerId: number | null;
  bytes: number;
  width: number | null;
  height: number | null;
  createdAt: string;
};

export const UPLOADS_URL_PREFIX = "/uploads/";

type Row = {
  id: number;
  path: string;
  kind: UploadKind;
  owner_id: number | null;
  bytes: number;
  width: number | null;
  height: number | null;
  created_at: string;
};

function toUpload(row: Row): StoredUpload {
  return {
    id: row.id,
    path: row.path,
    url: UPLOADS_URL_PREFIX + row.path,
    kind: row.kind,
    ownerId: row.owner_id,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    createdAt: row.created_at,
  };
}

export async function insertUpload(
  db: DB,
  input: { path: string; kind: UploadKind; ownerId: number | null; bytes: number; width: number; height: number },
): Promise<StoredUpload> {
  const row = await db
    .insertInto("uploads")
    .values({
      path: input.path,
      kind: input.kind,
      owner_id: input.ownerId,
      bytes: input.bytes,
      width: input.width,
      height: input.height,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUpload(row);
}

export async function findUploadByPath(db: DB, path: string): Promise<StoredUpload | undefined> {
  const row = await db.selectFrom("uploads").selectAll().where("path", "=", path).executeTakeFirst();
  return row && toUpload(row);
}

export async function setUploadOwner(db: DB, id: number, ownerId: number | null): Promise<void> {
  await db.updateTable("uploads").set({ owner_id: ownerId }).where("id", "=", id).execute();
}

export async function deleteUploadRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom("uploads").where("id", "=", id).execute();
}

/** How many users show this URL as their avatar (other than `exceptUserId`). */
export async function countAvatarUsers(db: DB, url: string, exceptUserId?: number): Promise<number> {
  let query = db.selectFrom("users").where("avatar_url", "=", url);
  if (exceptUserId !== undefined) query = query.where("id", "!=", exceptUserId);
  const row = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Avatar uploads made before `before` that no user shows (uploaded, never set, or replaced). */
export async function listUnusedAvatarUploads(db: DB, before: string): Promise<StoredUpload[]> {
  const rows = await db
    .selectFrom("uploads")
    .selectAll()
    .where("kind", "=", "avatars")
    .where("created_at", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("users")
            .select("users.id")
            .where("users.avatar_url", "=", sql<string>`${UPLOADS_URL_PREFIX} || uploads.path`),
        ),
      ),
    )
    .limit(500)
    .execute();
  return rows.map(toUpload);
}

/**
 * QC photo files made before `before` that no QC photo shows (a crash between storing
 * the files and recording the photo, or a refused batch whose clean-up failed).
 */
export async function listUnreferencedQcUploads(db: DB, before: string): Promise<StoredUpload[]> {
  const rows = await db
    .selectFrom("uploads")
    .selectAll()
    .where("kind", "=", "qc")
    .where("created_at", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("qc_images")
            .select("qc_images.id")
            .where(({ or, eb }) =>
              or([
                eb("qc_images.image_url", "=", sql<string>`${UPLOADS_URL_PREFIX} || uploads.path`),
                eb("qc_images.thumb_url", "=", sql<string>`${UPLOADS_URL_PREFIX} || uploads.path`),
              ]),
            ),
        ),
      ),
    )
    .limit(500)
    .execute();
  return rows.map(toUpload);
}

/**
 * Product image files made before `before` that no product or SKU shows (uploaded in the
 * product form and then removed, replaced, or never saved). Rows whose files are named in
 * written text (a description, a blog post, a mail, a setting) are left to the caller's
 * check: see textsNamingUploads.
 */
export async function listUnreferencedProductUploads(db: DB, before: string): Promise<StoredUpload[]> {
  // the URLs that are shown, gathered once (SQLite keeps the NOT IN list as an index):
  // per-upload lookups would scan every product's image list for each file
  const rows = await sql<Row>`
    SELECT * FROM uploads
    WHERE kind = 'products' AND created_at < ${before}
      AND ${UPLOADS_URL_PREFIX} || path NOT IN (
        -- an address written in full (https://shop.example/uploads/...) names the same file
        SELECT substr(image.value, instr(image.value, ${UPLOADS_URL_PREFIX}))
          FROM products, ${jsonArrayElements(db, sql`products.images`, "image")}
          WHERE image.type = 'text' AND instr(image.value, ${UPLOADS_URL_PREFIX}) > 0
        UNION SELECT substr(thumbnail_url, instr(thumbnail_url, ${UPLOADS_URL_PREFIX}))
          FROM product_skus WHERE instr(thumbnail_url, ${UPLOADS_URL_PREFIX}) > 0
      )
    LIMIT 500`.execute(db);
  return rows.rows.map(toUpload);
}

/**
 * Every stored text that names an upload of `kind` by its URL (product descriptions, blog
 * posts, e-mail templates and campaigns, site settings): a file named there is in use.
 */
export async function textsNamingUploads(db: DB, kind: UploadKind): Promise<string[]> {
  const like = `%${UPLOADS_URL_PREFIX}${kind}/%`;
  const rows = await sql<{ text: string }>`
    SELECT description AS text FROM products WHERE description LIKE ${like}
    UNION ALL SELECT description_items FROM products WHERE description_items LIKE ${like}
    UNION ALL SELECT content FROM blog_posts WHERE content LIKE ${like}
    UNION ALL SELECT featured_image FROM blog_posts WHERE featured_image LIKE ${like}
    UNION ALL SELECT html_content FROM email_templates WHERE html_content LIKE ${like}
    UNION ALL SELECT html_content FROM email_campaigns WHERE html_content LIKE ${like}
    UNION ALL SELECT html_content FROM email_campaign_runs WHERE html_content LIKE ${like}
    UNION ALL SELECT value FROM site_settings WHERE value LIKE ${like}`.execute(db);
  return rows.rows.map((row) => row.text);
}
