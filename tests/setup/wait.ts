/**
 * Waiting in tests (docs/testing.md, "Waiting in tests"): a test never sleeps for a fixed
 * time hoping something has happened meanwhile; it polls for the thing itself, with a
 * deadline, and a failure names what never happened.
 */

export type WaitOptions = {
  /** What is waited for, as the failure says it ("the log line of GET /healthz?probe=1"). */
  what: string;
  /** How long it may take; default 10 s. */
  timeoutMs?: number;
  /** Between two checks; default 20 ms. */
  intervalMs?: number;
  /** The state last seen, added to the failure. */
  detail?: () => string | Promise<string>;
};

/**
 * Checks until `check` answers a truthy value, and answers it; fails once `timeoutMs` has
 * passed. The last check starts at or after the deadline, so a slow check never fails a
 * condition that held by then.
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const startedAt = Date.now();
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (startedAt >= deadline) {
      const detail = options.detail ? `; last seen: ${await options.detail()}` : "";
      throw new Error(`${options.what}: not within ${timeoutMs} ms${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(intervalMs, deadline - Date.now()))));
  }
}

/**
 * Waits until the wall clock is past `time` (epoch ms): for what the clock of a server in
 * another process decides (a schedule's time, an expiry, a whole second of an HTTP date),
 * where the test has no clock to hand it. As long as it takes, never a rounded guess.
 */
export async function clockPast(time: number, what: string): Promise<void> {
  await waitFor(() => Date.now() > time, { what, timeoutMs: Math.max(0, time - Date.now()) + 1_000, intervalMs: 10 });
}
