/** Background jobs (the queue behind app/services/jobs.server.ts). */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { onPostgres } from "./sql-dialect.server";
import type { JobStatus } from "../../db/schema";

export type { JobStatus };

export type Job = {
  id: number;
  name: string;
  key: string | null;
  payload: unknown;
  runAt: number;
  status: JobStatus;
  attempts: number;
  lastError: string | null;
  startedAt: number | null;
  finishedAt: number | null;
};

type Row = {
  id: number;
  name: string;
  key: string | null;
  payload: string;
  run_at: number;
  status: JobStatus;
  attempts: number;
  last_error: string | null;
  started_at: number | null;
  finished_at: number | null;
};

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function toJob(row: Row): Job {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    payload: parsePayload(row.payload),
    runAt: row.run_at,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/**
 * Adds a pending job. With a key, nothing is added while an unfinished job (pending or
 * running) has the same key; the answer is then that job's id, or null when it could
 * not be read back.
 */
export async function insertJob(
  db: DB,
  input: { name: string; payload?: unknown; runAt: number; key?: string | null },
): Promise<{ id: number; created: boolean }> {
  // the unfinished job of the key may finish between the refused insert and the read:
  // then the insert is tried again
  for (let attempt = 0; ; attempt++) {
    const inserted = await db
      .insertInto("jobs")
      .values({ name: input.name, key: input.key ?? null, payload: JSON.stringify(input.payload ?? {}), run_at: Math.floor(input.runAt) })
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, created: true };
    const existing = await db
      .selectFrom("jobs")
      .select("id")
      .where("key", "=", input.key ?? null)
      .where("status", "in", ["pending", "running"])
      .executeTakeFirst();
    if (existing) return { id: existing.id, created: false };
    if (attempt >= 2) throw new Error(`jobs: could not add or find the job of key ${input.key}`);
  }
}

/** Who runs a claimed job, and until when it is theirs unless they renew it. */
export type Lease = { by: string; until: number };

/**
 * Takes the next due pending job among `names` (oldest due first) and marks it running,
 * leased to `lease.by`. On PostgreSQL many instances claim at once: each skips the rows
 * another is claiming (FOR UPDATE SKIP LOCKED), so a job is never taken twice.
 */
export async function claimDueJob(db: DB, names: string[], now: number, lease: Lease): Promise<Job | undefined> {
  if (names.length === 0) return undefined;
  let due = db
    .selectFrom("jobs")
    .select("id")
    .where("status", "=", "pending")
    .where("run_at", "<=", now)
    .where("name", "in", names)
    .orderBy("run_at")
    .orderBy("id")
    .limit(1);
  if (onPostgres(db)) due = due.forUpdate().skipLocked();
  const row = await db
    .updateTable("jobs")
    .set({ status: "running", started_at: now, lease_until: lease.until, claimed_by: lease.by })
    .where("id", "=", due)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
  return row && toJob(row);
}

/** Keeps the running jobs `ids` of `by` theirs until `until`. Answers the ids still theirs. */
export async function renewLeases(db: DB, ids: number[], lease: Lease): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .updateTable("jobs")
    .set({ lease_until: lease.until })
    .where("id", "in", ids)
    .where("status", "=", "running")
    .where("claimed_by", "=", lease.by)
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** A job's end is recorded by the instance that runs it, while it is still theirs. */
const stillHeldBy = (by: string | undefined) =>
  by === undefined ? sql<boolean>`1 = 1` : sql<boolean>`status = 'running' AND claimed_by = ${by}`;

export async function completeJob(db: DB, id: number, now: number, by?: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ status: "done", finished_at: now, last_error: null, lease_until: null })
    .where("id", "=", id)
    .where(stillHeldBy(by))
    .execute();
}

/** Back to pending at `runAt` (a retry, the next period, or a job handed back at a stop). */
export async function rescheduleJob(
  db: DB,
  id: number,
  input: { runAt: number; attempts?: number; lastError?: string | null; payload?: unknown; by?: string },
): Promise<void> {
  await db
    .updateTable("jobs")
    .set({
      status: "pending",
      lease_until: null,
      run_at: Math.floor(input.runAt),
      ...(input.attempts !== undefined ? { attempts: input.attempts } : {}),
      ...(input.lastError !== undefined ? { last_error: input.lastError } : {}),
      ...(input.payload !== undefined ? { payload: JSON.stringify(input.payload) } : {}),
    })
    .where("id", "=", id)
    .where(stillHeldBy(input.by))
    .execute();
}

export async function failJob(db: DB, id: number, input: { attempts: number; lastError: string; now: number; by?: string }): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ status: "failed", attempts: input.attempts, last_error: input.lastError, finished_at: input.now, lease_until: null })
    .where("id", "=", id)
    .where(stillHeldBy(input.by))
    .execute();
}

/**
 * Jobs a previous process left running (it crashed or was killed): back to pending with
 * the interruption counted as an attempt. Answers them as they were. On SQLite, at a
 * start, that is every running job (one process owns the file); on PostgreSQL, where
 * other instances run theirs, the jobs whose lease ran out before `now`.
 */
export async function recoverInterruptedJobs(db: DB, message: string, now: number): Promise<Job[]> {
  return takeBack(db, message, onPostgres(db) ? now : null);
}

/**
 * PostgreSQL: jobs whose instance stopped renewing their lease before `now` (it was killed
 * or lost), back to pending for the others. On SQLite nothing: the only process is this one.
 */
export async function recoverExpiredLeases(db: DB, message: string, now: number): Promise<Job[]> {
  return onPostgres(db) ? takeBack(db, message, now) : [];
}

async function takeBack(db: DB, message: string, leaseExpiredBefore: number | null): Promise<Job[]> {
  const rows = await db
    .updateTable("jobs")
    .set({ status: "pending", attempts: sql`attempts + 1`, last_error: message, lease_until: null })
    .where("status", "=", "running")
    .$if(leaseExpiredBefore !== null, (query) =>
      query.where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", leaseExpiredBefore!)])),
    )
    .returningAll()
    .execute();
  // as they were: running, with the attempts before this interruption
  return rows.map((row) => ({ ...toJob(row), status: "running" as const, attempts: row.attempts - 1 }));
}

/** The job of a periodic task (its key is `every:<name>`), made pending at `runAt` when missing or finished. */
export async function ensurePeriodicJob(db: DB, name: string, runAt: number, options: { dueNow?: boolean } = {}): Promise<void> {
  const key = `every:${name}`;
  const unfinished = await db
    .selectFrom("jobs")
    .select(["id", "status", "run_at"])
    .where("key", "=", key)
    .where("status", "in", ["pending", "running"])
    .executeTakeFirst();
  if (!unfinished) {
    await insertJob(db, { name, key, runAt });
    return;
  }
  // due now: a pending run waiting for a later time is brought forward
  if (options.dueNow && unfinished.status === "pending" && unfinished.run_at > runAt) {
    await db.updateTable("jobs").set({ run_at: runAt }).where("id", "=", unfinished.id).where("status", "=", "pending").execute();
  }
}

export async function findJob(db: DB, id: number): Promise<Job | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toJob(row);
}

export async function listJobs(db: DB, filter: { name?: string; key?: string; status?: JobStatus } = {}): Promise<Job[]> {
  let query = db.selectFrom("jobs").selectAll().orderBy("id");
  if (filter.name) query = query.where("name", "=", filter.name);
  if (filter.key) query = query.where("key", "=", filter.key);
  if (filter.status) query = query.where("status", "=", filter.status);
  return (await query.execute()).map(toJob);
}

/** Cancels the unfinished pending job of a key (a running one finishes). */
export async function deletePendingJob(db: DB, key: string): Promise<number> {
  const result = await db.deleteFrom("jobs").where("key", "=", key).where("status", "=", "pending").executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Finished jobs (done or failed) older than `before` (epoch ms). */
export async function deleteFinishedJobs(db: DB, before: number): Promise<number> {
  const result = await db.deleteFrom("jobs").where("status", "in", ["done", "failed"]).where("finished_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
