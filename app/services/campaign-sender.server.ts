/**
 * The campaign sender (docs/decisions/018-email-campaigns.md): runs of campaigns sent
 * from their send log by the job runner (app/services/jobs.server.ts). The job handler
 * here makes every decision about a run; the sending itself happens in waves in the
 * campaign worker thread (campaign-waves.server.ts), off the thread that serves the site.
 *
 * The log is the only truth of who got what: a row is `sending` exactly while its
 * message is with the relay (at most EMAIL_CONNECTIONS rows in the whole process), and
 * `sent` only once the relay said 250. Nothing else is a checkpoint, so:
 * - a pause or a stop (SIGTERM) stops picking rows, lets the messages in flight finish
 *   and be recorded, and leaves the rest pending: resuming goes on with the next
 *   pending row, repeating and skipping no one;
 * - after a crash (kill -9) the rows left `sending` are the only doubt: they are sent
 *   again and counted as uncertain on the run (at most EMAIL_CONNECTIONS messages);
 * - an unsubscribe is read when a row is picked, so it counts from the next message of
 *   any run on.
 * Temporary failures (4xx, the relay unreachable) put the row back with a growing wait
 * and never fail it; OUTAGE_FAILURES of them in a row pause the run as a relay outage,
 * resumed by itself after a growing wait. A 5xx answer fails that recipient only.
 */
import { Worker } from "node:worker_threads";
import { ApiError } from "~/lib/api.server";
import { getDb, setAutomaticCheckpoints } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { compiledWorkerFile } from "~/lib/worker-file.server";
import { findTemplate } from "~/models/email/templates.server";
import { findCampaign, scheduledCampaigns, setCampaignStatus, type Campaign } from "~/models/email/campaigns.server";
import { createRun, findRun, openRunOfCampaign, runsWithStatus, transition, type CampaignRun } from "~/models/email/runs.server";
import { recordWaveAndClaimNext, openSends, recoverInFlight, resetOutages } from "~/models/email/send-log.server";
import { ACTIVE_DAYS, EMAIL_MESSAGES, type CampaignStatus, type RecurringPattern } from "~/schemas/email";
import { OUTAGE_FAILURES, runWaves, type SendLog, type StepEnd, type WaveJob } from "~/services/campaign-waves.server";
import type { FromWorker, LogRequest, ToWorker } from "~/services/campaign-worker.server";
import { enqueueJob, type JobDefinition, type JobOutcome } from "~/services/jobs.server";
import { loadSettings, siteBaseUrl, toSiteInfo } from "~/services/site-settings.server";

const RUN_JOB = "email.campaign-run";
const START_JOB = "email.campaign-start";
const SCHEDULER_JOB = "email.scheduler";
export const runJobKey = (runId: number) => `campaign-run:${runId}`;
export const startJobKey = (campaignId: number) => `campaign-start:${campaignId}`;

export { OUTAGE_FAILURES };
const MAX_OUTAGE_WAIT_MS = 30 * 60_000;
/** A run hands its job slot back this often (and goes on at once). */
const STEP_MS = 30_000;
const DAY_MS = 24 * 60 * 60_000;

// ---------------------------------------------------------------- occurrences

/** The k-th occurrence (k ≥ 0) of a series starting at `anchor`; months keep the anchor's day (or the month's last). */
export function occurrence(anchor: number, pattern: RecurringPattern, k: number): number {
  if (pattern === "daily") return anchor + k * DAY_MS;
  if (pattern === "weekly") return anchor + k * 7 * DAY_MS;
  const start = new Date(anchor);
  const month = start.getUTCMonth() + k;
  const year = start.getUTCFullYear() + Math.floor(month / 12);
  const monthOfYear = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, monthOfYear + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    monthOfYear,
    Math.min(start.getUTCDate(), lastDay),
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
    start.getUTCMilliseconds(),
  );
}

/** The first occurrence strictly after `after` (the anchor itself when it is later). */
export function nextOccurrence(anchor: number, pattern: RecurringPattern, after: number): number {
  if (anchor > after) return anchor;
  const period = pattern === "daily" ? DAY_MS : pattern === "weekly" ? 7 * DAY_MS : 28 * DAY_MS;
  // a guess at or below the answer, then forward
  let k = Math.max(0, Math.floor((after - anchor) / (pattern === "monthly" ? 31 * DAY_MS : period)));
  while (occurrence(anchor, pattern, k) <= after) k++;
  return occurrence(anchor, pattern, k);
}

// ---------------------------------------------------------------- the worker thread

type Pending = { resolve: (end: StepEnd) => void; reject: (error: Error) => void };
type WorkerHandle = { worker: Worker; pending: Map<number, Pending>; exited: Promise<void>; idleTimer?: NodeJS.Timeout };

declare global {
  var __campaignWorker: WorkerHandle | undefined;
  var __campaignInThread: Map<number, () => void> | undefined;
}

let stepIds = 0;

/** The send log, in this thread (the only one with the database). */
const sendLog: SendLog = {
  exchange: (input) => recordWaveAndClaimNext(getDb(), input),
  relayAnswered: (runId) => resetOutages(getDb(), runId),
};

/** Answers the worker's questions about the send log. */
async function answer(worker: Worker, request: LogRequest) {
  try {
    const value = request.type === "exchange" ? await sendLog.exchange(request.input) : await sendLog.relayAnswered(request.runId);
    worker.postMessage({ type: "reply", ask: request.ask, value } satisfies ToWorker);
  } catch (error) {
    worker.postMessage({ type: "reply", ask: request.ask, error: (error as Error).message } satisfies ToWorker);
  }
}

function campaignWorker(): WorkerHandle | null {
  if (globalThis.__campaignWorker) return globalThis.__campaignWorker;
  const file = compiledWorkerFile("campaign-worker");
  if (!file) return null;
  // no inherited flags (V8 heap flags are refused in a worker); a small young generation, as the server's
  const worker = new Worker(file, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  const pending = new Map<number, Pending>();
  const failAll = (error: Error) => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", (code) => {
      const current = globalThis.__campaignWorker;
      if (current?.worker === worker) globalThis.__campaignWorker = undefined;
      // a newer worker (this one retired while idle) checkpoints from now on
      if (!current || current.worker === worker) setAutomaticCheckpoints(true);
      failAll(new Error(`the campaign worker exited (code ${code})`));
      resolve();
    }),
  );
  worker.on("message", (message: FromWorker) => {
    if (message.type === "exchange" || message.type === "relay-answered") {
      // after the requests already waiting: a page never waits behind the send log
      setImmediate(() => void answer(worker, message));
      return;
    }
    if (message.type === "checkpointing") {
      // the worker checkpoints the WAL while it lives, off this thread
      setAutomaticCheckpoints(false);
      log.info("email: the campaign worker checkpoints the database from now on");
      return;
    }
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.type === "done") entry.resolve(message.end);
    else entry.reject(new Error(`campaign worker: ${message.error}`));
  });
  worker.on("error", (error) => {
    log.warn(`email: the campaign worker failed: ${error.message}`);
    failAll(error);
  });
  // the worker alone never keeps the process running
  worker.unref();
  log.info("email: campaign worker thread started");
  globalThis.__campaignWorker = { worker, pending, exited };
  return globalThis.__campaignWorker;
}

const post = (handle: WorkerHandle, message: ToWorker) => handle.worker.postMessage(message);

/**
 * One step of a run: waves until nothing is due, a pause or stop, an outage or the
 * step's time. In the worker thread; in this thread only when no compiled worker exists
 * (`npm run dev` before any `npm run build`).
 */
async function sendStep(run: CampaignRun, signal: AbortSignal): Promise<StepEnd> {
  const job: WaveJob = {
    run: {
      id: run.id,
      campaignId: run.campaignId,
      subject: run.subject,
      htmlContent: run.htmlContent,
      textContent: run.textContent,
      variables: run.variables,
      outageCount: run.outageCount,
    },
    site: await siteContext(),
    deadline: Date.now() + STEP_MS,
  };
  const handle = campaignWorker();
  if (!handle) {
    const inThread = (globalThis.__campaignInThread ??= new Map());
    let halted = false;
    inThread.set(run.id, () => (halted = true));
    try {
      return await runWaves(job, sendLog, () => halted || signal.aborted);
    } finally {
      inThread.delete(run.id);
    }
  }
  const id = ++stepIds;
  const onAbort = () => post(handle, { type: "stop" });
  signal.addEventListener("abort", onAbort, { once: true });
  clearTimeout(handle.idleTimer);
  try {
    return await new Promise<StepEnd>((resolve, reject) => {
      handle.pending.set(id, { resolve, reject });
      post(handle, { type: "step", id, job });
      if (signal.aborted) onAbort();
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
    if (!handle.pending.size) {
      handle.idleTimer = setTimeout(() => void retireIdleWorker(handle), getEnv().EMAIL_WORKER_IDLE_MS);
      handle.idleTimer.unref();
    }
  }
}

/** A worker with no step for EMAIL_WORKER_IDLE_MS closes (its memory goes back); the next step starts a new one. */
async function retireIdleWorker(handle: WorkerHandle): Promise<void> {
  if (globalThis.__campaignWorker !== handle || handle.pending.size) return;
  // steps from now on start a new worker; this one finishes closing its SMTP pool
  globalThis.__campaignWorker = undefined;
  post(handle, { type: "close" });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([handle.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
  clearTimeout(timer);
  await handle.worker.terminate();
  log.info("email: the campaign worker closed after a quiet spell");
}

/** Stops a run's sending after the wave in flight (a pause): those messages finish and are recorded. */
export function haltRun(runId: number): void {
  globalThis.__campaignInThread?.get(runId)?.();
  const handle = globalThis.__campaignWorker;
  if (handle) post(handle, { type: "halt", runId });
}

/** At a stop, after the job runner: the worker closes its SMTP pool and exits. */
export async function closeCampaignWorker(timeoutMs = 5000): Promise<void> {
  const handle = globalThis.__campaignWorker;
  if (!handle) return;
  post(handle, { type: "close" });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([handle.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  if (globalThis.__campaignWorker === handle) {
    await handle.worker.terminate();
    globalThis.__campaignWorker = undefined;
  }
}

// ---------------------------------------------------------------- starting and resuming

/** The content a run of the campaign sends: its template's, or its own body. */
async function contentOf(campaign: Campaign) {
  if (campaign.templateId) {
    const template = await findTemplate(getDb(), campaign.templateId);
    if (template) {
      return {
        subject: campaign.subject,
        htmlContent: template.htmlContent,
        textContent: template.textContent ?? campaign.textContent,
        variables: template.variables,
      };
    }
  }
  if (!campaign.htmlContent)
    throw new ApiError(400, EMAIL_MESSAGES.contentRequired, "VALIDATION_ERROR", [
      { field: "template_id", message: EMAIL_MESSAGES.contentRequired },
    ]);
  return { subject: campaign.subject, htmlContent: campaign.htmlContent, textContent: campaign.textContent, variables: {} };
}

/** Throws the 400 a campaign without content deserves (checked before it is executed or scheduled). */
export async function assertSendable(campaign: Campaign): Promise<void> {
  await contentOf(campaign);
}

/**
 * Starts the run of one occurrence: the campaign (in one of `from`) becomes sending and
 * the run's audience is fixed now. Answers undefined when it was not in `from`.
 */
export async function startRun(
  campaign: Campaign,
  input: { from: readonly CampaignStatus[]; scheduledFor: number; nextRunAt: number | null },
): Promise<CampaignRun | undefined> {
  const now = Date.now();
  const content = await contentOf(campaign);
  const run = await createRun(getDb(), {
    campaignId: campaign.id,
    campaignFrom: input.from,
    nextRunAt: input.nextRunAt,
    scheduledFor: input.scheduledFor,
    recipientType: campaign.recipientType,
    ...content,
    activeDays: ACTIVE_DAYS,
    now,
  });
  if (!run) return undefined;
  log.info(`email: campaign ${campaign.id} run ${run.seq} started for ${run.totals.total} recipients`);
  await ensureRunJob(run.id);
  return run;
}

/** Makes sure the run's job will run (now, or at `runAt`). */
export async function ensureRunJob(runId: number, runAt = Date.now()): Promise<boolean> {
  const { created } = await enqueueJob({ name: RUN_JOB, key: runJobKey(runId), payload: { runId }, runAt });
  return created;
}

/** Schedules the start of a scheduled or recurring campaign's next run. */
export async function ensureStartJob(campaignId: number, runAt: number): Promise<void> {
  await enqueueJob({ name: START_JOB, key: startJobKey(campaignId), payload: { campaignId }, runAt });
}

/**
 * After a resume: the run's job may have been finishing (it had just seen the pause) when
 * the resume asked for it, so it is asked for again shortly after (the scheduler is the
 * last resort).
 */
export function ensureRunJobSoon(runId: number): void {
  setTimeout(() => {
    ensureRunJob(runId).catch((error) => log.warn(`email: re-queueing run ${runId} failed: ${(error as Error).message}`));
  }, 1500).unref();
}

// ---------------------------------------------------------------- sending one run

type SiteContext = { siteName: string; siteUrl: string; messageHost: string };

/** The site's name, address and the host of message ids, as every campaign message uses them. */
export async function siteContext(): Promise<SiteContext> {
  const settings = await loadSettings();
  const env = getEnv();
  const fromDomain = /@([^>\s]+)>?\s*$/.exec(env.MAIL_FROM)?.[1];
  return {
    siteName: toSiteInfo(settings).site_name,
    siteUrl: siteBaseUrl(settings),
    messageHost: fromDomain ?? new URL(env.PUBLIC_URL).hostname,
  };
}

const outageWait = (outages: number) => Math.min(getEnv().EMAIL_RETRY_DELAY_MS * 2 ** Math.max(0, outages - 1), MAX_OUTAGE_WAIT_MS);

/** A run's end: completed (or failed when nothing went out); the campaign follows, a recurring one waits for its next run. */
async function finishRun(runId: number): Promise<void> {
  const db = getDb();
  const run = await findRun(db, runId);
  if (!run) return;
  const campaign = await findCampaign(db, run.campaignId);
  const status = run.totals.sent === 0 && run.totals.failed > 0 ? "failed" : "completed";
  const recurring = campaign?.scheduleType === "recurring" && campaign.nextRunAt !== null;
  const finished = await transition(db, {
    runId,
    runFrom: ["sending"],
    run: { status, finishedAt: new Date().toISOString(), pauseReason: null, resumeAt: null },
    campaignId: run.campaignId,
    campaignFrom: ["sending"],
    campaignTo: recurring ? "scheduled" : status,
    // the run ends whatever its campaign says (it never stays open with nothing to send)
    campaignOptional: true,
  });
  if (!finished) return;
  const { sent, failed, skipped, uncertain, total } = run.totals;
  log.info(
    `email: campaign ${run.campaignId} run ${run.seq} ${status}: ${sent} sent, ${failed} failed, ${skipped} skipped of ${total}${uncertain ? ` (${uncertain} uncertain after a crash)` : ""}`,
  );
  if (recurring) await ensureStartJob(campaign.id, campaign.nextRunAt!);
}

/** The relay looks down: the run waits, the campaign shows paused with the reason, and it resumes by itself. */
async function enterOutage(runId: number, error: string): Promise<number | null> {
  const db = getDb();
  const run = await findRun(db, runId);
  if (!run) return null;
  const outages = run.outageCount + 1;
  const resumeAt = Date.now() + outageWait(outages);
  const reason = `The SMTP relay is not accepting mail (${OUTAGE_FAILURES} failures in a row; last: ${error}). Nobody is marked failed; sending resumes by itself at ${new Date(resumeAt).toISOString().slice(11, 19)} UTC.`;
  const moved = await transition(db, {
    runId,
    runFrom: ["sending"],
    run: { status: "waiting", pauseReason: reason, resumeAt, outageCount: outages, pausedAt: new Date().toISOString() },
    campaignId: run.campaignId,
    campaignFrom: ["sending"],
    campaignTo: "paused",
  });
  if (!moved) return null;
  log.warn(
    `email: campaign ${run.campaignId} run ${run.seq} paused: relay outage (${error}); resuming in ${Math.round((resumeAt - Date.now()) / 1000)} s`,
  );
  return resumeAt;
}

/** The job of a run: one step of sending, then what comes next. */
async function runJob(payload: unknown, { signal }: { signal: AbortSignal }): Promise<JobOutcome> {
  const runId = Number((payload as { runId?: unknown })?.runId);
  if (!Number.isInteger(runId) || runId <= 0) return;
  const db = getDb();
  let run = await findRun(db, runId);
  if (!run) return;

  if (run.status === "waiting") {
    if (run.resumeAt !== null && run.resumeAt > Date.now()) return { runAgainAt: run.resumeAt };
    // the outage wait is over: try the relay again
    const resumed = await transition(db, {
      runId,
      runFrom: ["waiting"],
      run: { status: "sending", pauseReason: null, resumeAt: null, pausedAt: null },
      campaignId: run.campaignId,
      campaignFrom: ["paused"],
      campaignTo: "sending",
    });
    if (resumed) log.info(`email: campaign ${run.campaignId} run ${run.seq} tries the relay again`);
    run = await findRun(db, runId);
    if (!run) return;
  }
  if (run.status !== "sending") return; // paused by an admin (resuming queues the job again) or finished

  // no sender of this run is alive now: rows still in flight were cut off by a crash
  const recovered = await recoverInFlight(db, runId);
  if (recovered) {
    log.warn(
      `email: campaign ${run.campaignId} run ${run.seq}: ${recovered} messages were in flight when the server died; they are sent again (maybe twice)`,
    );
  }

  const { outage } = await sendStep(run, signal);
  if (signal.aborted) return { runAgainAt: Date.now() };
  if (outage) {
    const resumeAt = await enterOutage(runId, outage);
    if (resumeAt !== null) return { runAgainAt: resumeAt };
  }

  const now = await findRun(db, runId);
  if (!now || now.status !== "sending") {
    return now?.status === "waiting" && now.resumeAt !== null ? { runAgainAt: now.resumeAt } : undefined;
  }
  const left = await openSends(db, runId);
  if (left.open === 0) {
    await finishRun(runId);
    return;
  }
  // rows waiting for a retry after a temporary failure, or the step's time was up
  return { runAgainAt: Math.max(Date.now(), left.nextAttemptAt ?? Date.now()) };
}

/** The job that starts a scheduled campaign's (next) run at its time. */
async function startJob(payload: unknown): Promise<JobOutcome> {
  const campaignId = Number((payload as { campaignId?: unknown })?.campaignId);
  if (!Number.isInteger(campaignId) || campaignId <= 0) return;
  const db = getDb();
  const campaign = await findCampaign(db, campaignId);
  if (!campaign || campaign.status !== "scheduled" || campaign.nextRunAt === null) return;
  const now = Date.now();
  if (campaign.nextRunAt > now + 500) return { runAgainAt: campaign.nextRunAt };
  // missed occurrences (the server was down) make one catch-up run, not one each
  const following =
    campaign.scheduleType === "recurring" && campaign.recurringPattern
      ? nextOccurrence(
          Date.parse(campaign.scheduledAt ?? new Date(campaign.nextRunAt).toISOString()),
          campaign.recurringPattern,
          Math.max(now, campaign.nextRunAt),
        )
      : null;
  try {
    await startRun(campaign, { from: ["scheduled"], scheduledFor: campaign.nextRunAt, nextRunAt: following });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // nothing to send (its content is gone): the campaign fails instead of retrying forever
    log.warn(`email: campaign ${campaignId} could not start: ${error.message}`);
    await setCampaignStatus(db, campaignId, ["scheduled"], "failed", { nextRunAt: null });
  }
}

/**
 * Every 30 s and at start: what the jobs table should hold for every campaign in motion.
 * Catches up scheduled starts missed while the server was down and closes any gap a
 * race left (each call below is a no-op when the job is there).
 */
async function schedulerJob(): Promise<void> {
  const db = getDb();
  for (const campaign of await scheduledCampaigns(db)) {
    if (campaign.nextRunAt !== null) await ensureStartJob(campaign.id, campaign.nextRunAt);
  }
  for (const run of await runsWithStatus(db, ["sending", "waiting"])) {
    await ensureRunJob(run.id, run.status === "waiting" && run.resumeAt !== null ? run.resumeAt : Date.now());
  }
}

export const campaignRunJob: JobDefinition = {
  name: RUN_JOB,
  run: runJob,
  // the handler deals with mail failures itself; a throw is the database or a bug
  maxAttempts: 1000,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 5 * 60_000),
};
export const campaignStartJob: JobDefinition = { name: START_JOB, run: startJob, maxAttempts: 1000 };
export const emailSchedulerJob: JobDefinition = { name: SCHEDULER_JOB, run: schedulerJob, every: 30_000 };

/** The open run of a campaign (for pause and resume). */
export const openRun = (campaignId: number) => openRunOfCampaign(getDb(), campaignId);
