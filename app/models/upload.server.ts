/** Files stored under UPLOADS_DIR, each with the user it was issued to. */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
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
      not(exists(selectFrom("users").select("users.id").where("users.avatar_url", "=", sql<string>`${UPLOADS_URL_PREFIX} || uploads.path`))),
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
