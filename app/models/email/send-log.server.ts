/**
 * The per-recipient send log (docs/decisions/018-email-campaigns.md). A log row ends (sent,
 * failed, skipped) only in recordWaveAndClaimNext, together with its run's counters in one
 * transaction, so the counters are always the log's counts.
 */
import type SQLite from "better-sqlite3";
import { sql } from "kysely";
import { getSqlite, type DB } from "~/lib/db.server";
import { onPostgres } from "../sql-dialect.server";
import { totalsOf } from "./campaigns.server";

/**
 * Rows a dead process left in flight (`sending` when no sender of this run is alive):
 * back to pending, marked uncertain and counted on the run. Answers how many.
 */
export async function recoverInFlight(db: DB, runId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("email_sends")
      .set({ status: "pending", uncertain: 1, next_attempt_at: 0 })
      .where("run_id", "=", runId)
      .where("status", "in", ["pending", "sending"])
      .where("status", "=", "sending")
      .executeTakeFirst();
    const count = Number(result.numUpdatedRows);
    if (count)
      await trx
        .updateTable("email_campaign_runs")
        .set((eb) => ({ uncertain_count: eb("uncertain_count", "+", count) }))
        .where("id", "=", runId)
        .execute();
    return count;
  });
}

export type ClaimedSend = {
  id: number;
  userId: number | null;
  attempts: number;
  /** the recipient as they are now (null: the account is gone) */
  email: string | null;
  username: string | null;
  verified: boolean;
  unsubscribed: boolean;
};

type ClaimRow = {
  id: number;
  user_id: number | null;
  attempts: number;
  email: string | null;
  username: string | null;
  email_verified: number | null;
  unsubscribed: number;
};

/*
 * The sender's hot path: one transaction records a wave's results and claims the next
 * wave, a hundred times a second. They run as better-sqlite3
 * statements prepared once, synchronously, while kysely's connection is held (so no
 * kysely transaction can be open in between): through the query builder each cost about
 * 0.4 ms of the thread that answers the site, mostly its own bookkeeping.
 */
type SenderStatements = { claim: SQLite.Statement; sent: SQLite.Statement; retry: SQLite.Statement; count: SQLite.Statement };
const preparedSenderStatements = new WeakMap<SQLite.Database, SenderStatements>();

function senderStatements(sqlite: SQLite.Database): SenderStatements {
  let statements = preparedSenderStatements.get(sqlite);
  if (!statements) {
    statements = {
      claim: sqlite.prepare(`
        UPDATE email_sends SET status = 'sending', claimed_at = @now
        WHERE id IN (
          SELECT s.id FROM email_sends s
          -- "status IN (...)" repeats the partial index's own predicate (email_sends_open): SQLite
          -- uses a partial index only when the query names its WHERE terms as written, and
          -- "status = 'pending'" alone does not; on PostgreSQL (claimSends below) it does
          WHERE s.run_id = @runId AND s.status IN ('pending', 'sending') AND s.status = 'pending' AND s.next_attempt_at <= @now
            AND EXISTS (SELECT 1 FROM email_campaign_runs r WHERE r.id = @runId AND r.status = 'sending')
          ORDER BY s.next_attempt_at, s.id
          LIMIT @limit
        )
        RETURNING id, user_id, attempts,
          (SELECT u.email FROM users u WHERE u.id = email_sends.user_id) AS email,
          (SELECT u.username FROM users u WHERE u.id = email_sends.user_id) AS username,
          (SELECT u.email_verified FROM users u WHERE u.id = email_sends.user_id) AS email_verified,
          EXISTS (SELECT 1 FROM email_unsubscribes x WHERE x.user_id = email_sends.user_id) AS unsubscribed`),
      sent: sqlite.prepare(`
        UPDATE email_sends
        SET status = @status, email = @email, last_error = @error, attempts = attempts + @attemptsAdded, finished_at = @finishedAt
        WHERE id = @id AND status = 'sending'`),
      retry: sqlite.prepare(`
        UPDATE email_sends SET status = 'pending', attempts = attempts + 1, last_error = @error, next_attempt_at = @nextAttemptAt
        WHERE id = @id AND status = 'sending'`),
      count: sqlite.prepare(`
        UPDATE email_campaign_runs
        SET sent_count = sent_count + @sent, failed_count = failed_count + @failed, skipped_count = skipped_count + @skipped
        WHERE id = @runId`),
    };
    preparedSenderStatements.set(sqlite, statements);
  }
  return statements;
}

/** Runs `work` on the raw connection while kysely's is held. */
function withConnection<T>(db: DB, work: (sqlite: SQLite.Database) => T): Promise<T> {
  return db.connection().execute(async () => work(getSqlite()));
}

/** How a claimed row ended: sent, failed for good, skipped, or back to pending for a retry. */
export type SendResult =
  | { id: number; status: "sent" | "failed" | "skipped"; email: string | null; error?: string | null; attemptsAdded: number }
  | { id: number; status: "retry"; error: string; nextAttemptAt: number };

/**
 * One transaction, the sender's only write: records a wave's results (only rows still in
 * flight change, and the run's counters by as many), then
 * takes up to `limit` due pending rows of a run that is still sending, in order, and marks
 * them in flight. Each new recipient is read in the same statement, so an unsubscribe
 * recorded before it is always seen. Recording one wave and claiming the next together
 * writes their shared pages once, and the rows in flight never outnumber the wave.
 */
export function recordWaveAndClaimNext(
  db: DB,
  input: { results: SendResult[]; runId: number; now: number; limit: number },
): Promise<ClaimedSend[]> {
  if (onPostgres(db)) return recordWaveAndClaimNextPostgres(db, input);
  const finishedAt = new Date(input.now).toISOString();
  return withConnection(db, (sqlite) => {
    const statements = senderStatements(sqlite);
    const claimed = sqlite
      .transaction(() => {
        const ended = { sent: 0, failed: 0, skipped: 0 };
        for (const result of input.results) {
          if (result.status === "retry") {
            statements.retry.run({ id: result.id, error: result.error, nextAttemptAt: result.nextAttemptAt });
          } else if (
            statements.sent.run({
              id: result.id,
              status: result.status,
              email: result.email,
              error: result.error ?? null,
              attemptsAdded: result.attemptsAdded,
              finishedAt,
            }).changes
          ) {
            ended[result.status] += 1;
          }
        }
        if (ended.sent || ended.failed || ended.skipped) statements.count.run({ runId: input.runId, ...ended });
        return input.limit > 0 ? (statements.claim.all({ runId: input.runId, now: input.now, limit: input.limit }) as ClaimRow[]) : [];
        // the write lock first, waiting for it (db/connection.ts ImmediateSqliteDriver)
      })
      .immediate();
    return claimed.map(toClaimedSend).sort((a, b) => a.id - b.id);
  });
}

const toClaimedSend = (row: ClaimRow): ClaimedSend => ({
  id: row.id,
  userId: row.user_id,
  attempts: row.attempts,
  email: row.email,
  username: row.username,
  verified: row.email_verified === 1,
  unsubscribed: row.unsubscribed === 1,
});

/**
 * recordWaveAndClaimNext() on PostgreSQL: the same transaction through kysely. Many instances may
 * claim rows of one run at once: each takes rows no other transaction holds
 * (FOR UPDATE SKIP LOCKED), so no row is claimed twice.
 */
async function recordWaveAndClaimNextPostgres(
  db: DB,
  input: { results: SendResult[]; runId: number; now: number; limit: number },
): Promise<ClaimedSend[]> {
  const finishedAt = new Date(input.now).toISOString();
  const claimed = await db.transaction().execute(async (trx) => {
    const ended = { sent: 0, failed: 0, skipped: 0 };
    for (const result of input.results) {
      if (result.status === "retry") {
        await trx
          .updateTable("email_sends")
          .set((eb) => ({
            status: "pending",
            attempts: eb("attempts", "+", 1),
            last_error: result.error,
            next_attempt_at: result.nextAttemptAt,
          }))
          .where("id", "=", result.id)
          .where("status", "=", "sending")
          .execute();
        continue;
      }
      const { numUpdatedRows } = await trx
        .updateTable("email_sends")
        .set((eb) => ({
          status: result.status,
          email: result.email,
          last_error: result.error ?? null,
          attempts: eb("attempts", "+", result.attemptsAdded),
          finished_at: finishedAt,
        }))
        .where("id", "=", result.id)
        .where("status", "=", "sending")
        .executeTakeFirstOrThrow();
      if (numUpdatedRows > 0n) ended[result.status] += 1;
    }
    if (ended.sent || ended.failed || ended.skipped) {
      await trx
        .updateTable("email_campaign_runs")
        .set((eb) => ({
          sent_count: eb("sent_count", "+", ended.sent),
          failed_count: eb("failed_count", "+", ended.failed),
          skipped_count: eb("skipped_count", "+", ended.skipped),
        }))
        .where("id", "=", input.runId)
        .execute();
    }
    if (input.limit <= 0) return [];
    const { rows } = await sql<ClaimRow>`UPDATE email_sends SET status = 'sending', claimed_at = ${input.now}
      WHERE id IN (
        SELECT s.id FROM email_sends s
        WHERE s.run_id = ${input.runId} AND s.status = 'pending' AND s.next_attempt_at <= ${input.now}
          AND EXISTS (SELECT 1 FROM email_campaign_runs r WHERE r.id = ${input.runId} AND r.status = 'sending')
        ORDER BY s.next_attempt_at, s.id
        LIMIT ${input.limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, user_id, attempts,
        (SELECT u.email FROM users u WHERE u.id = email_sends.user_id) AS email,
        (SELECT u.username FROM users u WHERE u.id = email_sends.user_id) AS username,
        (SELECT u.email_verified FROM users u WHERE u.id = email_sends.user_id) AS email_verified,
        CASE WHEN EXISTS (SELECT 1 FROM email_unsubscribes x WHERE x.user_id = email_sends.user_id) THEN 1 ELSE 0 END AS unsubscribed`.execute(
      trx,
    );
    return rows;
  });
  return claimed.map(toClaimedSend).sort((a, b) => a.id - b.id);
}

/** The relay answered again after an outage: the next outage waits the shortest time again. */
export async function resetOutages(db: DB, runId: number): Promise<void> {
  await db.updateTable("email_campaign_runs").set({ outage_count: 0 }).where("id", "=", runId).where("outage_count", ">", 0).execute();
}

/** What is left of a run: rows still pending or in flight, and the earliest retry time. */
export async function openSends(db: DB, runId: number): Promise<{ open: number; inFlight: number; nextAttemptAt: number | null }> {
  const row = await db
    .selectFrom("email_sends")
    .select((eb) => [
      eb.fn.countAll<number>().as("open"),
      eb.fn.sum<number>(sql`CASE WHEN status = 'sending' THEN 1 ELSE 0 END`).as("in_flight"),
      eb.fn.min<number>(sql`CASE WHEN status = 'pending' THEN next_attempt_at END`).as("next_attempt_at"),
    ])
    .where("run_id", "=", runId)
    .where("status", "in", ["pending", "sending"])
    .executeTakeFirstOrThrow();
  return {
    open: Number(row.open),
    inFlight: Number(row.in_flight ?? 0),
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
  };
}

export type SendFailure = { userId: number | null; email: string | null; error: string | null; finishedAt: string | null; runSeq: number };

export async function failedSends(db: DB, campaignId: number, limit: number): Promise<SendFailure[]> {
  const rows = await db
    .selectFrom("email_sends as s")
    .innerJoin("email_campaign_runs as r", "r.id", "s.run_id")
    .select(["s.user_id", "s.email", "s.last_error", "s.finished_at", "r.seq"])
    .where("s.campaign_id", "=", campaignId)
    .where("s.status", "=", "failed")
    .orderBy("s.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    error: row.last_error,
    finishedAt: row.finished_at,
    runSeq: row.seq,
  }));
}

/** Rows waiting for a retry after a temporary failure (the reason shown on the campaign page). */
export async function retryingSends(
  db: DB,
  runId: number,
): Promise<{ count: number; lastError: string | null; nextAttemptAt: number | null }> {
  const row = await db
    .selectFrom("email_sends")
    .select((eb) => [
      eb.fn.countAll<number>().as("n"),
      eb.fn.max("last_error").as("last_error"),
      eb.fn.min("next_attempt_at").as("next_attempt_at"),
    ])
    .where("run_id", "=", runId)
    .where("status", "in", ["pending", "sending"])
    .where("status", "=", "pending")
    .where("attempts", ">", 0)
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.n),
    lastError: (row.last_error as string | null) ?? null,
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
  };
}

/** Every log row by status (the overview's emailLogs). */
export async function sendStatusCounts(db: DB): Promise<{ sent: number; failed: number; pending: number; skipped: number }> {
  const row = await db
    .selectFrom("email_campaign_runs")
    .select((eb) => [
      eb.fn.sum<number>("total_recipients").as("total"),
      eb.fn.sum<number>("sent_count").as("sent"),
      eb.fn.sum<number>("failed_count").as("failed"),
      eb.fn.sum<number>("skipped_count").as("skipped"),
      eb.fn.sum<number>("uncertain_count").as("uncertain"),
    ])
    .executeTakeFirstOrThrow();
  const totals = totalsOf(row);
  return { sent: totals.sent, failed: totals.failed, pending: totals.pending, skipped: totals.skipped };
}

/** Sent and failed messages per UTC day (YYYY-MM-DD) since `fromDay`. */
export async function sendsByDay(db: DB, fromDay: string): Promise<Array<{ day: string; sent: number; failed: number }>> {
  const rows = await db
    .selectFrom("email_sends")
    .select([
      sql<string>`substr(finished_at, 1, 10)`.as("day"),
      sql<number>`count(*) FILTER (WHERE status = 'sent')`.as("sent"),
      sql<number>`count(*) FILTER (WHERE status = 'failed')`.as("failed"),
    ])
    .where("finished_at", ">=", fromDay)
    .where("status", "in", ["sent", "failed"])
    .groupBy(sql`substr(finished_at, 1, 10)`)
    .execute();
  return rows.map((row) => ({ day: row.day, sent: Number(row.sent ?? 0), failed: Number(row.failed ?? 0) }));
}
