/** Bulk imports: a job and its rows, each with its outcome (queries only). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import type { ImportRowStatus, Platform } from "../../db/schema";

export type { ImportRowStatus };

export type ImportJob = {
  id: number;
  createdBy: number | null;
  createdByName: string | null;
  source: "paste" | "csv" | "xlsx";
  fileName: string | null;
  status: "running" | "done";
  total: number;
  createdAt: string;
  finishedAt: string | null;
  counts: Record<ImportRowStatus, number>;
};

export type ImportRow = {
  id: number;
  position: number;
  link: string;
  platform: Platform | null;
  itemId: string | null;
  status: ImportRowStatus;
  message: string | null;
  productId: number | null;
};

export type NewImportRow = Omit<ImportRow, "id" | "productId">;

const STATUSES: ImportRowStatus[] = ["pending", "imported", "exists", "duplicate", "not_item", "failed"];
const nowIso = () => new Date().toISOString();

export async function insertImportJob(
  db: DB,
  job: { createdBy: number; source: ImportJob["source"]; fileName: string | null },
  rows: NewImportRow[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("import_jobs")
      .values({
        created_by: job.createdBy,
        source: job.source,
        file_name: job.fileName,
        total: rows.length,
        status: rows.some((row) => row.status === "pending") ? "running" : "done",
        finished_at: rows.some((row) => row.status === "pending") ? null : nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let start = 0; start < rows.length; start += 200) {
      await trx
        .insertInto("import_rows")
        .values(
          rows.slice(start, start + 200).map((row) => ({
            job_id: inserted.id,
            position: row.position,
            link: row.link,
            platform: row.platform,
            item_id: row.itemId,
            status: row.status,
            message: row.message,
          })),
        )
        .execute();
    }
    return inserted.id;
  });
}

async function countsOf(db: DB, jobIds: number[]): Promise<Map<number, Record<ImportRowStatus, number>>> {
  const counts = new Map<number, Record<ImportRowStatus, number>>();
  for (const id of jobIds) counts.set(id, Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<ImportRowStatus, number>);
  if (!jobIds.length) return counts;
  const rows = await db
    .selectFrom("import_rows")
    .select(["job_id", "status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("job_id", "in", jobIds)
    .groupBy(["job_id", "status"])
    .execute();
  for (const row of rows) counts.get(row.job_id)![row.status] = Number(row.n);
  return counts;
}

function jobQuery(db: DB) {
  return db
    .selectFrom("import_jobs as j")
    .leftJoin("users as u", "u.id", "j.created_by")
    .select([
      "j.id",
      "j.created_by",
      "j.source",
      "j.file_name",
      "j.status",
      "j.total",
      "j.created_at",
      "j.finished_at",
      "u.username as created_by_name",
    ]);
}

type JobRow = Awaited<ReturnType<ReturnType<typeof jobQuery>["executeTakeFirstOrThrow"]>>;

const toJob = (row: JobRow, counts: Record<ImportRowStatus, number>): ImportJob => ({
  id: row.id,
  createdBy: row.created_by,
  createdByName: row.created_by_name,
  source: row.source,
  fileName: row.file_name,
  status: row.status,
  total: row.total,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  counts,
});

export async function findImportJob(db: DB, id: number): Promise<ImportJob | null> {
  const row = await jobQuery(db).where("j.id", "=", id).executeTakeFirst();
  if (!row) return null;
  return toJob(row, (await countsOf(db, [id])).get(id)!);
}

export async function listImportJobs(db: DB, options: { page: number; limit: number }): Promise<{ items: ImportJob[]; total: number }> {
  const [rows, total] = await Promise.all([
    jobQuery(db)
      .orderBy("j.id", "desc")
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute(),
    db
      .selectFrom("import_jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const counts = await countsOf(
    db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toJob(row, counts.get(row.id)!)), total: Number(total.n) };
}

const toRow = (row: {
  id: number;
  position: number;
  link: string;
  platform: Platform | null;
  item_id: string | null;
  status: ImportRowStatus;
  message: string | null;
  product_id: number | null;
}): ImportRow => ({
  id: row.id,
  position: row.position,
  link: row.link,
  platform: row.platform,
  itemId: row.item_id,
  status: row.status,
  message: row.message,
  productId: row.product_id,
});

export async function listImportRows(
  db: DB,
  jobId: number,
  options: { status: ImportRowStatus | null; page: number; limit: number },
): Promise<{ items: ImportRow[]; total: number }> {
  let query = db.selectFrom("import_rows").where("job_id", "=", jobId);
  if (options.status) query = query.where("status", "=", options.status);
  const [rows, total] = await Promise.all([
    query
      .selectAll()
      .orderBy("position")
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRow), total: Number(total.n) };
}

/** The next rows still to import, in order. */
export async function pendingImportRows(db: DB, jobId: number, limit: number): Promise<ImportRow[]> {
  const rows = await db
    .selectFrom("import_rows")
    .selectAll()
    .where("job_id", "=", jobId)
    .where("status", "=", "pending")
    .orderBy("position")
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

export async function settleImportRow(
  db: DB,
  id: number,
  outcome: {
    status: Exclude<ImportRowStatus, "pending">;
    message: string | null;
    productId?: number | null;
    platform?: Platform;
    itemId?: string;
  },
): Promise<void> {
  await db
    .updateTable("import_rows")
    .set({
      status: outcome.status,
      message: outcome.message,
      product_id: outcome.productId ?? null,
      ...(outcome.platform ? { platform: outcome.platform } : {}),
      ...(outcome.itemId ? { item_id: outcome.itemId } : {}),
      updated_at: nowIso(),
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Failed rows back to pending (the "retry failed rows" button); answers how many. */
export async function requeueFailedRows(db: DB, jobId: number): Promise<number> {
  const result = await db
    .updateTable("import_rows")
    .set({ status: "pending", message: null, updated_at: nowIso() })
    .where("job_id", "=", jobId)
    .where("status", "=", "failed")
    .executeTakeFirst();
  const count = Number(result.numUpdatedRows);
  if (count) await db.updateTable("import_jobs").set({ status: "running", finished_at: null }).where("id", "=", jobId).execute();
  return count;
}

/**
 * Marks a job done when no row is pending; answers whether it did. One statement: rows put
 * back in the queue (a retry) at the same moment are either seen, or come after "done" and
 * set the job running again; never "done" with rows waiting.
 */
export async function finishImportJobIfDone(db: DB, jobId: number): Promise<boolean> {
  const result = await db
    .updateTable("import_jobs")
    .set({ status: "done", finished_at: sql<string>`coalesce(finished_at, ${nowIso()})` })
    .where("id", "=", jobId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("import_rows").select("id").where("job_id", "=", jobId).where("status", "=", "pending"))),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
