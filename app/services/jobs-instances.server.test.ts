/**
 * The job queue shared by many instances (PostgreSQL; decision 030): each job runs once
 * however many runners claim at the same time, and a job whose instance stopped renewing
 * its lease is taken back by another. Runs on both engines (TEST_DATABASE_URL): on SQLite,
 * where one process owns the file, a start takes back every job left running instead.
 */
import { afterEach, describe, expect, it } from "vitest";
import { dialect, getDb } from "~/lib/db.server";
import { findJob, insertJob } from "~/models/job.server";
import { waitFor } from "../../tests/setup/wait";
import { startJobRunner, type JobRunner } from "./jobs.server";

const runners: JobRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop(2000);
});

let counter = 0;
const uniqueName = (base: string) => `${base}.${Date.now()}.${counter++}`;

const until = (check: () => Promise<boolean> | boolean, what: string) => waitFor(check, { what });

describe("one queue, two instances", () => {
  it("runs each of 120 jobs exactly once while two runners claim at the same time", async () => {
    const name = uniqueName("test.shared");
    const runs = new Map<number, string[]>();
    const definition = (instance: string) => ({
      name,
      run: async (payload: unknown) => {
        const n = (payload as { n: number }).n;
        runs.set(n, [...(runs.get(n) ?? []), instance]);
        // a job takes a moment, so the two runners' claims overlap
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    });
    // both running before the jobs come (on SQLite a runner's start takes back what is running)
    for (const instance of ["a", "b"]) {
      runners.push(await startJobRunner({ definitions: [definition(instance)], pollMs: 10, concurrency: 4, instance }));
    }
    for (let n = 0; n < 120; n++) await insertJob(getDb(), { name, payload: { n }, runAt: Date.now() });
    await until(() => runs.size === 120, "all 120 jobs run");
    await Promise.all(runners.map((runner) => runner.idle()));
    expect([...runs.values()].filter((instances) => instances.length !== 1)).toEqual([]);
    expect(new Set([...runs.values()].flat())).toEqual(new Set(["a", "b"]));
  });

  it("takes back a job whose instance stopped renewing its lease, never one still leased", async () => {
    const name = uniqueName("test.lease");
    const db = getDb();
    const now = Date.now();
    const claim = async (by: string, leaseUntil: number) => {
      const { id } = await insertJob(db, { name, payload: { by }, runAt: now });
      await db
        .updateTable("jobs")
        .set({ status: "running", started_at: now, claimed_by: by, lease_until: leaseUntil })
        .where("id", "=", id)
        .execute();
      return id;
    };
    const lost = await claim("killed-instance", now - 1);
    const alive = await claim("live-instance", now + 60_000);
    const ran: string[] = [];
    runners.push(
      await startJobRunner({
        definitions: [{ name, run: async (payload) => void ran.push((payload as { by: string }).by) }],
        pollMs: 10,
        instance: "survivor",
        leaseMs: 600,
      }),
    );
    await until(async () => (await findJob(db, lost))?.status === "done", "the lost job taken back and run");
    const other = await findJob(db, alive);
    if (dialect() === "postgres") {
      // another instance still renews it: it stays theirs
      expect(other?.status).toBe("running");
      expect(ran).toEqual(["killed-instance"]);
    } else {
      // one process owns a SQLite file: whatever was running when it started is taken back
      await until(async () => (await findJob(db, alive))?.status === "done", "the job left running taken back and run");
      expect(ran.sort()).toEqual(["killed-instance", "live-instance"]);
    }
    expect((await findJob(db, lost))?.attempts).toBe(1);
  });

  it("keeps renewing the lease of a long job, so no other instance takes it", async () => {
    const name = uniqueName("test.long");
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const starts: string[] = [];
    const definition = (instance: string) => ({
      name,
      run: async () => {
        starts.push(instance);
        await released;
      },
    });
    for (const instance of ["first", "second"]) {
      runners.push(await startJobRunner({ definitions: [definition(instance)], pollMs: 10, instance, leaseMs: 300 }));
    }
    const { id } = await insertJob(getDb(), { name, runAt: Date.now() });
    await until(() => starts.length === 1, "the long job started");
    // until its lease, renewed, reaches three lease periods past its start: without the
    // renewals the second runner would have taken it back after the first
    const lease = async () =>
      (await getDb().selectFrom("jobs").select(["started_at", "lease_until"]).where("id", "=", id).executeTakeFirst()) ?? null;
    await until(async () => {
      const held = await lease();
      return Number(held?.lease_until) >= Number(held?.started_at) + 3 * 300;
    }, "the long job's lease renewed to three periods past its start");
    expect(starts).toHaveLength(1);
    release();
    await until(async () => (await findJob(getDb(), id))?.status === "done", "the long job done");
    expect(starts).toHaveLength(1);
  });
});
