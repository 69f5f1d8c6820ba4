/**
 * The sending itself (docs/decisions/018-email-campaigns.md): waves of messages from a
 * run's send log. It runs in the campaign worker thread (campaign-worker.server.ts), so
 * building and sending thousands of messages a second never holds up the thread that
 * answers the site; every decision about the run (its status, a pause, an outage, its
 * end) stays with the job handler in campaign-sender.server.ts.
 *
 * A wave is up to EMAIL_CONNECTIONS rows (each `sending`), sent side by side; its results
 * are recorded in the same transaction that claims the next wave. So the rows in flight
 * never outnumber the connections (all that a crash can leave in doubt), and every
 * message picked is recorded before a step ends.
 *
 * The database stays with the main thread (`SendLog`): a second connection's commits
 * would read, to the main thread's caches, as outside edits (SQLite's data_version) and
 * empty them on every request. The worker asks the main thread, once a wave.
 */
import { renderMessage } from "~/lib/email-template";
import { getEnv } from "~/lib/env.server";
import type { ClaimedSend, SendResult } from "~/models/email/send-log.server";
import { BulkMailError, sendBulkMail, senderFor, type BulkMail } from "~/services/mailer.server";
import { unsubscribeUrl } from "~/services/unsubscribe.server";

/** Temporary failures in a row (no answer from the relay in between) that pause a run as a relay outage. */
export const OUTAGE_FAILURES = 10;
const MAX_RETRY_WAIT_MS = 60 * 60_000;

/** What one step of a run needs to send, as plain data (it crosses to the worker thread). */
export type WaveJob = {
  run: {
    id: number;
    campaignId: number;
    subject: string;
    htmlContent: string;
    textContent: string | null;
    variables: Record<string, string>;
    outageCount: number;
  };
  site: { siteName: string; siteUrl: string; messageHost: string };
  /** epoch ms: the step hands its job slot back then */
  deadline: number;
};

export type StepEnd = { outage: string | null };

/** The send log as the waves use it: record a wave and claim the next (recordWaveAndClaimNext), note that the relay answers again. */
export type SendLog = {
  exchange: (input: { results: SendResult[]; runId: number; now: number; limit: number }) => Promise<ClaimedSend[]>;
  relayAnswered: (runId: number) => Promise<void>;
};

/** Messages per second for all runs together (EMAIL_SEND_RATE), with bursts of at most 50 ms. */
class Pace {
  private next = 0;
  constructor(private perSecond: number) {}
  /** waits until `count` more messages may go */
  async take(count = 1): Promise<void> {
    const interval = 1000 / this.perSecond;
    const now = performance.now();
    this.next = Math.max(this.next, now - 50);
    const wait = this.next - now;
    this.next += interval * count;
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Messages in flight for all runs together: one per SMTP connection (EMAIL_CONNECTIONS). */
class Slots {
  private free: number;
  private waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }
  /** At least one slot and as many more as are free, up to `most`; `release` gives them all back. */
  async acquireUpTo(most: number): Promise<{ count: number; release: () => void }> {
    if (this.free === 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.free--;
    let count = 1;
    while (count < most && this.free > 0) {
      this.free--;
      count++;
    }
    let released = false;
    return {
      count,
      release: () => {
        if (released) return;
        released = true;
        for (let n = 0; n < count; n++) {
          const next = this.waiting.shift();
          if (next) next();
          else this.free++;
        }
      },
    };
  }
}

let limits: { pace: Pace; slots: Slots } | undefined;
function sharedLimits() {
  if (!limits) {
    const env = getEnv();
    limits = { pace: new Pace(env.EMAIL_SEND_RATE), slots: new Slots(env.EMAIL_CONNECTIONS) };
  }
  return limits;
}

const retryWait = (attempts: number) => Math.min(getEnv().EMAIL_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_WAIT_MS);

const skipReason = (item: ClaimedSend) =>
  item.userId === null || item.email === null
    ? "account deleted"
    : item.unsubscribed
      ? "unsubscribed"
      : !item.verified
        ? "e-mail address not verified"
        : null;

/**
 * One recipient's campaign message: the content filled with their values, an unsubscribe
 * link of their own in the body and in the List-Unsubscribe headers (RFC 8058). The
 * template's "send a test to me" builds its message here too, so the test is the mail.
 */
export function campaignMail(
  content: { subject: string; htmlContent: string; textContent: string | null; variables: Record<string, string> },
  recipient: { userId: number; username: string; email: string },
  site: WaveJob["site"],
  messageKey: string,
): BulkMail {
  const link = unsubscribeUrl(recipient.userId);
  const message = renderMessage(
    { subject: content.subject, html: content.htmlContent, text: content.textContent, variables: content.variables },
    { userName: recipient.username, email: recipient.email, siteName: site.siteName, siteUrl: site.siteUrl, unsubscribeUrl: link },
  );
  return {
    to: { name: recipient.username, address: recipient.email },
    from: senderFor(site.siteName),
    ...message,
    headers: {
      // RFC 2919: mail programs group and filter the shop's campaigns by it
      "List-Id": `"${site.siteName.replace(/["\\\r\n]/g, "")}" <campaigns.${site.messageHost}>`,
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    messageId: `<${messageKey}@${site.messageHost}>`,
  };
}

/**
 * One claimed row, sent (or not): the result to record. Nothing is written here: the
 * wave's results are recorded together.
 */
async function deliver(run: WaveJob["run"], item: ClaimedSend, site: WaveJob["site"]): Promise<SendResult> {
  const skip = skipReason(item);
  if (skip) return { id: item.id, status: "skipped", email: item.email, error: skip, attemptsAdded: 0 };
  const userId = item.userId!;
  const email = item.email!;
  try {
    await sendBulkMail(
      // the same id for a message sent again after a crash, so a mailbox can tell the copy
      campaignMail(run, { userId, username: item.username ?? "", email }, site, `campaign-${run.campaignId}.run-${run.id}.user-${userId}`),
    );
  } catch (error) {
    const failure = error instanceof BulkMailError ? error : new BulkMailError("temporary", String(error));
    if (failure.kind === "permanent") return { id: item.id, status: "failed", email, error: failure.message, attemptsAdded: 1 };
    return { id: item.id, status: "retry", error: failure.message, nextAttemptAt: Date.now() + retryWait(item.attempts + 1) };
  }
  return { id: item.id, status: "sent", email, attemptsAdded: 1 };
}

/**
 * Sends the run's due rows in waves until none is left due, `stopped()` says so (a pause
 * or the server stopping), the relay looks down (OUTAGE_FAILURES temporary failures in a
 * row), or the deadline passes.
 */
export async function runWaves(job: WaveJob, log: SendLog, stopped: () => boolean): Promise<StepEnd> {
  const { pace, slots } = sharedLimits();
  let outage: string | null = null;
  // temporary failures in a row, reset by any answer of the relay (250 or 5xx)
  let inARow = 0;
  let answered = false;
  const going = () => outage === null && !stopped() && Date.now() < job.deadline;

  // the slots are held for the whole step: another run's step waits for this one
  const { count, release } = await slots.acquireUpTo(getEnv().EMAIL_CONNECTIONS);
  try {
    let results: SendResult[] = [];
    for (;;) {
      if (going()) await pace.take(count);
      const wave = await log.exchange({ results, runId: job.run.id, now: Date.now(), limit: going() ? count : 0 });
      if (!wave.length) break;
      results = await Promise.all(wave.map((item) => deliver(job.run, item, job.site)));
      for (const result of results) {
        if (result.status === "retry") {
          inARow += 1;
          if (inARow >= OUTAGE_FAILURES) outage ??= result.error;
        } else if (result.status !== "skipped") {
          inARow = 0;
          answered = true;
        }
      }
    }
  } finally {
    release();
  }
  if (answered && job.run.outageCount > 0) await log.relayAnswered(job.run.id);
  return { outage };
}
