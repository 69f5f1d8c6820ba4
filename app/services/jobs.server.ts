/**
 * The one background-job runner (docs/decisions/016-job-runner.md).
 *
 * Work that must survive a restart (a scheduled post going live, a campaign run sending,
 * listing checks, the daily rate refresh) is a row in the `jobs` table, run by the
 * process that serves the site:
 * - `enqueueJob()` adds a job (optionally keyed: one unfinished job per key);
 * - handlers are plain definitions listed in app/services/job-handlers.server.ts;
 *   a definition with `every` is periodic: one row, run again `every` ms after each run,
 *   and run at start when its time passed while the server was down;
 * - the runner claims due jobs one at a time (an UPDATE … WHERE status = 'pending'), runs
 *   up to `concurrency` at once, retries failures with back-off and marks a job failed
 *   after `maxAttempts`;
 * - on stop (SIGTERM) it aborts the handlers' signal, waits for them, and hands unfinished
 *   jobs back as pending: the next start goes on from there;
 * - after a crash, jobs left running are pending again at the next start. Handlers must
 *   therefore be idempotent: a job may run again after its process died mid-way;
 * - many instances on one PostgreSQL database share the queue: a claimed job is leased
 *   to its instance, which renews the lease while it runs (LEASE_MS); a job whose lease
 *   ran out (its instance was killed or lost) is taken back by the others' runners.
 *
 * The runner lives in the Remix server build (started through app/entry.server.tsx), so
 * handlers share module state (caches, the mail pool) with the routes.
 */
import { getDb, type DB } from "~/lib/db.server";
import { instanceId } from "~/lib/instance.server";
import { log } from "~/lib/log.server";
import {
  claimDueJob,
  completeJob,
  deleteFinishedJobs,
  deletePendingJob,
  ensurePeriodicJob,
  failJob,
  insertJob,
  recoverExpiredLeases,
  recoverInterruptedJobs,
  renewLeases,
  rescheduleJob,
  type Job,
} from "~/models/job.server";

export type { Job };

export type JobContext = {
  /** aborted when the server stops: finish the step in hand, then return */
  signal: AbortSignal;
  job: Job;
};

/** What a handler may answer: nothing (done), or a time to run again (the job stays pending). */
export type JobOutcome = void | { runAgainAt: number; payload?: unknown };

export type JobDefinition = {
  name: string;
  run: (payload: unknown, context: JobContext) => Promise<JobOutcome>;
  /** periodic: run again this many ms after each run (and at start when overdue) */
  every?: number;
  /** periodic: also run at every start, even when its next run is not due yet (catching up on what fell due while the server was down) */
  runAtStart?: boolean;
  /** failures before the job is marked failed (periodic jobs never are); default 5 */
  maxAttempts?: number;
  /** wait before retry n (1-based); default 10 s × 2^(n-1), at most an hour */
  backoffMs?: (attempt: number) => number;
};

const DEFAULT_MAX_ATTEMPTS = 5;
const defaultBackoff = (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 60 * 60_000);
const INTERRUPTED = "interrupted: the server stopped without finishing it";
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60_000;
/** How long a claimed job stays its instance's without a renewal; renewed every third of it. */
export const LEASE_MS = 15_000;

/** Finished jobs are kept a week for the record, then dropped. */
export const jobsCleanup: JobDefinition = {
  name: "jobs.cleanup",
  every: 24 * 60 * 60_000,
  run: async () => {
    const removed = await deleteFinishedJobs(getDb(), Date.now() - KEEP_FINISHED_MS);
    if (removed) log.info(`jobs: ${removed} finished jobs older than a week removed`);
  },
};

/** Adds a job. With a key, does nothing while an unfinished job has that key. Wakes the runner. */
export async function enqueueJob(
  input: { name: string; payload?: unknown; runAt?: number; key?: string },
  db: DB = getDb(),
): Promise<{ id: number; created: boolean }> {
  const result = await insertJob(db, { ...input, runAt: input.runAt ?? Date.now() });
  wakeJobRunner();
  return result;
}

/** Brings a periodic job's next run forward to now (it runs as soon as a slot is free). */
export async function runPeriodicJobNow(name: string, db: DB = getDb()): Promise<void> {
  await ensurePeriodicJob(db, name, Date.now(), { dueNow: true });
  wakeJobRunner();
}

/** Cancels a pending keyed job (one already running finishes). */
export async function cancelJob(key: string, db: DB = getDb()): Promise<boolean> {
  return (await deletePendingJob(db, key)) > 0;
}

export type JobRunnerOptions = {
  definitions: JobDefinition[];
  /** jobs run at once (a long campaign send holds one slot) */
  concurrency?: number;
  /** how often the table is read for due jobs */
  pollMs?: number;
  db?: DB;
  /** the instance the jobs are leased to (instanceId(); tests run two in one process) */
  instance?: string;
  /** LEASE_MS (tests make it short) */
  leaseMs?: number;
};

export type JobRunner = {
  /** looks for due jobs now instead of at the next poll */
  wake: () => void;
  /** stops taking jobs, aborts the running ones' signal and waits for them (at most `timeoutMs`) */
  stop: (timeoutMs?: number) => Promise<void>;
  /** resolves when no job is running and none is due (tests) */
  idle: () => Promise<void>;
};

declare global {
  var __jobRunner: JobRunner | undefined;
}

/** Tells the running runner (if any) to look for due jobs now. */
export function wakeJobRunner(): void {
  globalThis.__jobRunner?.wake();
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const db = options.db ?? getDb();
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 1000;
  const definitions = new Map(options.definitions.map((definition) => [definition.name, definition]));
  const names = [...definitions.keys()];
  const controller = new AbortController();
  const running = new Map<number, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let tickAgain = false;
  let idleWaiters: Array<() => void> = [];

  const me = options.instance ?? instanceId();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lease = () => ({ by: me, until: Date.now() + leaseMs });
  const interrupted = await recoverInterruptedJobs(db, INTERRUPTED, Date.now());
  for (const job of interrupted) log.warn(`jobs: ${job.name} #${job.id} was interrupted by a stop or crash; it runs again`);
  for (const definition of definitions.values()) {
    if (definition.every) await ensurePeriodicJob(db, definition.name, Date.now(), { dueNow: definition.runAtStart === true });
  }

  async function finish(definition: JobDefinition, job: Job, outcome: JobOutcome | undefined, error: unknown) {
    const now = Date.now();
    if (error === undefined) {
      if (outcome && typeof outcome === "object") {
        await rescheduleJob(db, job.id, { runAt: outcome.runAgainAt, attempts: 0, lastError: null, payload: outcome.payload, by: me });
      } else if (definition.every) {
        await rescheduleJob(db, job.id, { runAt: now + definition.every, attempts: 0, lastError: null, by: me });
      } else {
        await completeJob(db, job.id, now, me);
      }
      return;
    }
    if (controller.signal.aborted) {
      // stopped mid-way: handed back as it was, to go on at the next start
      await rescheduleJob(db, job.id, { runAt: now, by: me });
      return;
    }
    const attempts = job.attempts + 1;
    const message = errorText(error);
    if (definition.every) {
      log.warn(`jobs: ${job.name} failed (${message}); next run in ${Math.round(definition.every / 1000)} s`);
      await rescheduleJob(db, job.id, { runAt: now + definition.every, attempts, lastError: message, by: me });
    } else if (attempts >= (definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) {
      log.error(`jobs: ${job.name} #${job.id} failed for good after ${attempts} attempts: ${message}`);
      await failJob(db, job.id, { attempts, lastError: message, now, by: me });
    } else {
      const wait = (definition.backoffMs ?? defaultBackoff)(attempts);
      log.warn(`jobs: ${job.name} #${job.id} failed (attempt ${attempts}: ${message}); retried in ${Math.round(wait / 1000)} s`);
      await rescheduleJob(db, job.id, { runAt: now + wait, attempts, lastError: message, by: me });
    }
  }

  function run(job: Job) {
    const definition = definitions.get(job.name)!;
    const task = (async () => {
      let outcome: JobOutcome | undefined;
      let failure: unknown;
      try {
        outcome = await definition.run(job.payload, { signal: controller.signal, job });
      } catch (error) {
        failure = error ?? new Error("failed");
      }
      try {
        await finish(definition, job, outcome, failure);
      } catch (error) {
        log.error(`jobs: recording the end of ${job.name} #${job.id} failed: ${errorText(error)}`);
      }
    })().finally(() => {
      running.delete(job.id);
      if (!stopped) wake();
    });
    running.set(job.id, task);
  }

  async function tick() {
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      do {
        tickAgain = false;
        // the jobs of instances that stopped renewing their leases (PostgreSQL)
        for (const job of await recoverExpiredLeases(db, INTERRUPTED, Date.now())) {
          log.warn(`jobs: ${job.name} #${job.id} was left by an instance that stopped (its lease ran out); it runs again`);
        }
        while (!stopped && running.size < concurrency) {
          const job = await claimDueJob(db, names, Date.now(), lease());
          if (!job) break;
          run(job);
        }
      } while (tickAgain && !stopped);
    } catch (error) {
      log.error(`jobs: reading the queue failed: ${errorText(error)}`);
    } finally {
      ticking = false;
    }
    if (running.size === 0 && idleWaiters.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void tick().finally(schedule);
    }, pollMs);
    timer.unref();
  }

  function wake() {
    if (stopped) return;
    setImmediate(() => void tick());
  }

  // the running jobs stay this instance's while it lives
  const renewal = setInterval(() => {
    renewLeases(db, [...running.keys()], lease()).catch((error) => log.warn(`jobs: renewing the leases failed: ${errorText(error)}`));
  }, leaseMs / 3);
  renewal.unref();

  const runner: JobRunner = {
    wake,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake();
      }),
    stop: async (timeoutMs = 10_000) => {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      controller.abort();
      // renewed until the running jobs have handed themselves back
      void Promise.allSettled([...running.values()]).then(() => clearInterval(renewal));
      const all = Promise.allSettled([...running.values()]);
      let timeout: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        all.then(() => true),
        new Promise<boolean>((resolve) => {
          timeout = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]);
      clearTimeout(timeout);
      if (!waited) log.warn(`jobs: ${running.size} jobs still running after ${timeoutMs} ms; they run again at the next start`);
      if (globalThis.__jobRunner === runner) globalThis.__jobRunner = undefined;
    },
  };
  globalThis.__jobRunner = runner;
  await tick();
  schedule();
  return runner;
}
