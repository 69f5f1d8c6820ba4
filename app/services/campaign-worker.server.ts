/**
 * The campaign worker thread's entry (compiled to build/server/campaign-worker.js by
 * scripts/build-server.mjs). It runs send waves (campaign-waves.server.ts) for the job
 * handlers of the main thread, with its own SMTP pool; the send log stays with the main
 * thread, which claims and records for it:
 *
 *   main → worker  { type: "step", id, job }        run one step of a run
 *                  { type: "halt", runId }          a pause: that run stops after its wave
 *                  { type: "stop" }                 the server stops: every run stops after its wave
 *                  { type: "close" }                close the SMTP pool, then exit
 *                  { type: "reply", ask, value } | { type: "reply", ask, error }
 *   worker → main  { type: "done", id, end } | { type: "failed", id, error }
 *                  { type: "exchange", ask, input }   record a wave, claim the next
 *                  { type: "relay-answered", ask, runId }
 *                  { type: "checkpointing" }          this thread checkpoints the WAL from now on
 */
import os from "node:os";
import { parentPort } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { getEnv } from "~/lib/env.server";
import type { ClaimedSend } from "~/models/email/send-log.server";
import { runWaves, type SendLog, type StepEnd, type WaveJob } from "~/services/campaign-waves.server";
import { closeMail } from "~/services/mailer.server";

export type LogRequest =
  { type: "exchange"; ask: number; input: Parameters<SendLog["exchange"]>[0] } | { type: "relay-answered"; ask: number; runId: number };
export type ToWorker =
  | { type: "step"; id: number; job: WaveJob }
  | { type: "halt"; runId: number }
  | { type: "stop" }
  | { type: "close" }
  | { type: "reply"; ask: number; value?: unknown; error?: string };
export type FromWorker =
  { type: "done"; id: number; end: StepEnd } | { type: "failed"; id: number; error: string } | { type: "checkpointing" } | LogRequest;

/** The worker's scheduling priority (nice): it gets the CPU the site leaves free. */
const WORKER_NICE = 19;
/** How often the worker copies the WAL back into the database file (see `checkpointer`). */
export const CHECKPOINT_EVERY_MS = 1000;

/**
 * While the worker lives, it checkpoints the WAL, not the thread that answers the site:
 * sending writes the send log a hundred times a second, and SQLite's automatic
 * checkpoint, run by whichever commit crosses 1,000 pages, held a page request up by
 * 5–9 ms about once a second (docs/performance.md). The main thread turns its automatic
 * checkpoints off while this thread exists (campaign-sender.server.ts). A checkpoint
 * commits nothing, so the main thread's caches (SQLite's data_version) are not dropped by
 * it; PASSIVE never waits for readers or writers.
 */
function checkpointer(port: NonNullable<typeof parentPort>): () => void {
  // Litestream checkpoints the file it replicates (app/lib/db.server.ts)
  if (getEnv().LITESTREAM_REPLICA_URL) return () => {};
  let sqlite: SQLite.Database | null = null;
  try {
    sqlite = new SQLite(getEnv().DATABASE_PATH, { fileMustExist: true });
  } catch {
    // the main thread keeps its automatic checkpoints
    return () => {};
  }
  const connection = sqlite;
  const checkpoint = connection.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  const timer = setInterval(() => {
    try {
      checkpoint.get();
    } catch {
      // busy or locked: the next tick tries again
    }
  }, CHECKPOINT_EVERY_MS);
  port.postMessage({ type: "checkpointing" } satisfies FromWorker);
  return () => {
    clearInterval(timer);
    try {
      checkpoint.get();
      connection.close();
    } catch {
      // closing anyway; the main thread's automatic checkpoints take over again
    }
  };
}

if (parentPort) {
  const port = parentPort;
  // on Linux a priority belongs to a thread: this lowers the worker's only, never the
  // thread that answers the site (elsewhere it may apply to the process, so it is skipped)
  if (process.platform === "linux") {
    try {
      os.setPriority(WORKER_NICE);
    } catch {
      // not allowed here: sending at normal priority is still correct
    }
  }
  const stopCheckpoints = checkpointer(port);
  const halted = new Set<number>();
  let stopping = false;
  const steps = new Set<Promise<void>>();
  const asks = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let lastAsk = 0;
  /** A question to the main thread about the send log. */
  const ask = <T>(request: LogRequest extends infer R ? (R extends unknown ? Omit<R, "ask"> : never) : never): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastAsk;
      asks.set(id, { resolve: resolve as (value: unknown) => void, reject });
      port.postMessage({ ...request, ask: id } as LogRequest satisfies FromWorker);
    });
  const log: SendLog = {
    exchange: (input) => ask<ClaimedSend[]>({ type: "exchange", input }),
    relayAnswered: (runId) => ask<void>({ type: "relay-answered", runId }),
  };

  port.on("message", (message: ToWorker) => {
    if (message.type === "reply") {
      const pending = asks.get(message.ask);
      asks.delete(message.ask);
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else pending?.resolve(message.value);
    } else if (message.type === "halt") halted.add(message.runId);
    else if (message.type === "stop") stopping = true;
    else if (message.type === "close") {
      stopping = true;
      void Promise.allSettled(steps)
        .then(() => closeMail())
        .finally(() => {
          stopCheckpoints();
          port.close();
        });
    } else if (message.type === "step") {
      const runId = message.job.run.id;
      halted.delete(runId);
      const step = runWaves(message.job, log, () => stopping || halted.has(runId))
        .then((end) => port.postMessage({ type: "done", id: message.id, end } satisfies FromWorker))
        .catch((error: unknown) =>
          port.postMessage({
            type: "failed",
            id: message.id,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          } satisfies FromWorker),
        )
        .finally(() => steps.delete(step));
      steps.add(step);
    }
  });
}
