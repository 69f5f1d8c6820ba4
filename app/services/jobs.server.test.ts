import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/lib/db.server";
import { findJob, listJobs } from "~/models/job.server";
import { cancelJob, enqueueJob, startJobRunner, type JobDefinition, type JobRunner } from "./jobs.server";

const runners: JobRunner[] = [];
async function start(definitions: JobDefinition[], options: { concurrency?: number } = {}) {
  const runner = await startJobRunner({ definitions, pollMs: 20, ...options });
  runners.push(runner);
  return runner;
}

afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop(2000);
});

let counter = 0;
const uniqueName = (base: string) => `${base}.${Date.now()}.${counter++}`;

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the job runner", () => {
  it("runs a due job once with its payload, and leaves a future one until its time", async () => {
    const name = uniqueName("test.once");
    const seen: unknown[] = [];
    await start([{ name, run: async (payload) => void seen.push(payload) }]);
    const now = await enqueueJob({ name, payload: { n: 1 } });
    const later = await enqueueJob({ name, payload: { n: 2 }, runAt: Date.now() + 300 });
    await until(async () => (await findJob(getDb(), now.id))?.status === "done");
    expect(seen).toEqual([{ n: 1 }]);
    expect((await findJob(getDb(), later.id))?.status).toBe("pending");
    await until(async () => (await findJob(getDb(), later.id))?.status === "done");
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("adds one unfinished job per key, and a cancelled one never runs", async () => {
    const name = uniqueName("test.keyed");
    const key = uniqueName("key");
    const first = await enqueueJob({ name, key, runAt: Date.now() + 60_000 });
    const second = await enqueueJob({ name, key, runAt: Date.now() });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    expect(await cancelJob(key)).toBe(true);
    expect(await findJob(getDb(), first.id)).toBeUndefined();
    const third = await enqueueJob({ name, key });
    expect(third.created).toBe(true);
  });

  it("a key is free again once its job finished: enqueueing then adds a new job, never an error", async () => {
    const name = uniqueName("test.rekey");
    const key = uniqueName("key");
    let runs = 0;
    await start([{ name, run: async () => void (runs += 1) }]);
    const first = await enqueueJob({ name, key });
    await until(async () => (await findJob(getDb(), first.id))?.status === "done");
    const second = await enqueueJob({ name, key });
    expect(second.created).toBe(true);
    expect(second.id).not.toBe(first.id);
    await until(() => runs === 2);
  });

  it("retries a failing job with back-off and marks it failed after its attempts", async () => {
    const name = uniqueName("test.failing");
    const silenced = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let calls = 0;
    await start([
      {
        name,
        maxAttempts: 3,
        backoffMs: () => 30,
        run: async () => {
          calls += 1;
          throw new Error(`boom ${calls}`);
        },
      },
    ]);
    const { id } = await enqueueJob({ name });
    await until(async () => (await findJob(getDb(), id))?.status === "failed");
    const job = await findJob(getDb(), id);
    expect(calls).toBe(3);
    expect(job).toMatchObject({ attempts: 3, lastError: "boom 3" });
    expect(silenced).toHaveBeenCalledTimes(1);
  });

  it("a job that asks to run again stays pending with its new payload", async () => {
    const name = uniqueName("test.steps");
    const steps: number[] = [];
    await start([
      {
        name,
        run: async (payload) => {
          const step = (payload as { step: number }).step;
          steps.push(step);
          if (step < 3) return { runAgainAt: Date.now(), payload: { step: step + 1 } };
        },
      },
    ]);
    const { id } = await enqueueJob({ name, payload: { step: 1 } });
    await until(async () => (await findJob(getDb(), id))?.status === "done");
    expect(steps).toEqual([1, 2, 3]);
  });

  it("runs a periodic job at start and again after its period, never as two rows", async () => {
    const name = uniqueName("test.periodic");
    let runs = 0;
    const definition: JobDefinition = { name, every: 80, run: async () => void (runs += 1) };
    const first = await start([definition]);
    await until(() => runs >= 2);
    await first.stop();
    await start([definition]);
    await until(() => runs >= 3);
    const rows = await listJobs(getDb(), { name });
    expect(rows).toHaveLength(1);
    expect(rows[0].key).toBe(`every:${name}`);
  });

  it("runs a periodic job marked runAtStart at every start, even before its next run is due", async () => {
    const name = uniqueName("test.at-start");
    let runs = 0;
    // a long period: without runAtStart the second start would wait an hour
    const definition: JobDefinition = { name, every: 60 * 60_000, runAtStart: true, run: async () => void (runs += 1) };
    const first = await start([definition]);
    await until(() => runs === 1);
    await first.stop();
    const [row] = await listJobs(getDb(), { name });
    expect(row.runAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    await start([definition]);
    await until(() => runs === 2);
    // without the flag, a not yet due periodic job waits for its time
    const other = uniqueName("test.not-at-start");
    let otherRuns = 0;
    const plain: JobDefinition = { name: other, every: 60 * 60_000, run: async () => void (otherRuns += 1) };
    const third = await start([plain]);
    await until(() => otherRuns === 1);
    await third.stop();
    const fourth = await start([plain]);
    // it has looked at the queue (at its start, and once more) and found nothing due
    await fourth.idle();
    expect(otherRuns).toBe(1);
  });

  it("on stop, a running job sees its signal, and the job is handed back to run at the next start", async () => {
    const name = uniqueName("test.stop");
    let started = 0;
    let sawAbort = false;
    const definition: JobDefinition = {
      name,
      run: async (_payload, { signal }) => {
        started += 1;
        if (started > 1) return;
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        sawAbort = true;
        throw new Error("stopped");
      },
    };
    const runner = await start([definition]);
    const { id } = await enqueueJob({ name });
    await until(() => started === 1);
    await runner.stop();
    expect(sawAbort).toBe(true);
    expect(await findJob(getDb(), id)).toMatchObject({ status: "pending", attempts: 0 });
    await start([definition]);
    await until(async () => (await findJob(getDb(), id))?.status === "done");
    expect(started).toBe(2);
  });

  it("after a crash, a job left running runs again at the next start, the interruption counted", async () => {
    const name = uniqueName("test.crash");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { id } = await enqueueJob({ name, runAt: Date.now() + 60_000 });
    // what a killed process leaves behind
    await getDb().updateTable("jobs").set({ status: "running", started_at: Date.now() }).where("id", "=", id).execute();
    await getDb().updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", id).execute();
    let runs = 0;
    await start([{ name, run: async () => void (runs += 1) }]);
    await until(async () => (await findJob(getDb(), id))?.status === "done");
    expect(runs).toBe(1);
    expect((await findJob(getDb(), id))?.attempts).toBe(1);
  });

  it("runs at most `concurrency` jobs at once", async () => {
    const name = uniqueName("test.concurrency");
    let active = 0;
    let peak = 0;
    await start(
      [
        {
          name,
          run: async () => {
            active += 1;
            peak = Math.max(peak, active);
            // a job that takes a while, so more would run at once if the runner let them
            await new Promise((resolve) => setTimeout(resolve, 30));
            active -= 1;
          },
        },
      ],
      { concurrency: 2 },
    );
    const ids = await Promise.all(Array.from({ length: 6 }, () => enqueueJob({ name })));
    await until(async () => (await listJobs(getDb(), { name, status: "done" })).length === ids.length);
    expect(peak).toBe(2);
  });
});
