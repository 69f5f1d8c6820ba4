/**
 * `npm run bench -- --postgres URL --campaign-instances [--recipients N]`: a campaign of N
 * (10,000) recipients sent by two instances on one new PostgreSQL database while the
 * instance holding the campaign's job leaves: once stopped (SIGTERM, as a rolling deploy
 * does) and once killed (SIGKILL, a lost machine). Counted at the SMTP sink: who got
 * nothing (lost), who got it twice (repeated), and how long the campaign stood still
 * before the other instance took it over (docs/performance.md, "Many instances").
 *
 * A stopped instance hands its job back at once; a killed one cannot, so its lease (15 s)
 * runs out first, and the messages it had in flight (at most EMAIL_CONNECTIONS) are sent
 * again, counted as uncertain (decision 018): SMTP gives no way to ask whether a message
 * whose answer never came was taken.
 */
import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import { createPostgresKysely, createPostgresPool, type DB } from "../db/connection";
import { spawnInstance } from "./bench-instances";

export type SinkStats = { count: number; distinct: number; duplicates: number; first: number; last: number };

export type CampaignInstancesTools = {
  freePort: () => Promise<number>;
  waitFor: (url: string, child: ChildProcess, seconds: number) => Promise<void>;
  stop: (child: ChildProcess) => Promise<void>;
  startSink: (port: number) => ChildProcess;
  sinkStats: (sink: ChildProcess) => Promise<SinkStats>;
  sinkReset: (sink: ChildProcess) => Promise<void>;
  say: (text: string) => void;
  fail: (message: string) => never;
};

export type CampaignInstancesOptions = { url: string; recipients: number; rate: number; connections: number; root: string };

const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password" };

type Outcome = {
  signal: NodeJS.Signals;
  audience: number;
  received: number;
  distinct: number;
  repeated: number;
  uncertain: number;
  sentAtLeave: number;
  stillSeconds: number;
  seconds: number;
  status: string;
};

export async function benchCampaignAcrossInstances(options: CampaignInstancesOptions, tools: CampaignInstancesTools): Promise<void> {
  const { say, fail } = tools;
  // a database of its own: the campaign's audience is exactly the users put there
  const name = `qc_bench_campaign_${Date.now().toString(36)}`;
  const admin = createPostgresPool(options.url);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(options.url);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  const sinkPort = await tools.freePort();
  const sink = tools.startSink(sinkPort);
  await new Promise<void>((resolve) => sink.once("message", () => resolve()));
  const children = new Set<ChildProcess>();
  process.once("exit", () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  });
  const startInstance = async () => {
    const port = await tools.freePort();
    const child = spawnInstance(options.root, databaseUrl, port, {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
      EMAIL_SEND_RATE: String(options.rate),
      EMAIL_CONNECTIONS: String(options.connections),
    });
    children.add(child);
    const base = `http://127.0.0.1:${port}`;
    await tools.waitFor(`${base}/healthz`, child, 120);
    return { child, base };
  };

  const db = createPostgresKysely(createPostgresPool(databaseUrl, { max: 2 }));
  try {
    const instances = [await startInstance(), await startInstance()];
    const started = Date.now();
    for (let from = 0; from < options.recipients; from += 1000) {
      const rows = [];
      for (let n = from; n < Math.min(options.recipients, from + 1000); n++)
        rows.push({ username: `bench_mail_${n}`, email: `bench-mail-${n}@example.test`, email_verified: 1 });
      await db.insertInto("users").values(rows).execute();
    }
    say(`campaign across instances: ${options.recipients.toLocaleString("en")} recipients in ${name} (${Date.now() - started} ms)`);

    const outcomes: Outcome[] = [];
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      await tools.sinkReset(sink);
      const outcome = await campaignWhileOneLeaves(signal, instances, db, sink, tools);
      outcomes.push(outcome);
      // the one that left comes back for the next round
      const gone = instances.findIndex((instance) => instance.child.exitCode !== null || instance.child.signalCode !== null);
      if (gone >= 0) instances[gone] = await startInstance();
    }

    say("");
    say(
      `| instance holding the job | recipients | lost | repeated | uncertain | sent when it left | campaign still for | whole campaign |`,
    );
    say(`|---|---:|---:|---:|---:|---:|---:|---:|`);
    for (const o of outcomes) {
      say(
        `| ${o.signal === "SIGTERM" ? "stopped (SIGTERM)" : "killed (SIGKILL)"} | ${o.audience.toLocaleString("en")} | ${o.audience - o.distinct} | ${o.repeated} | ${o.uncertain} | ${o.sentAtLeave.toLocaleString("en")} | ${o.stillSeconds.toFixed(1)} s | ${o.seconds.toFixed(1)} s (${o.status}) |`,
      );
    }
    say(`(EMAIL_SEND_RATE=${options.rate}, EMAIL_CONNECTIONS=${options.connections}; a killed instance's lease runs 15 s)`);
    const bad = outcomes.filter((o) => o.audience !== o.distinct || o.repeated > o.uncertain || (o.signal === "SIGTERM" && o.repeated > 0));
    if (bad.length) fail(`campaign across instances: ${bad.map((o) => o.signal).join(", ")} lost or repeated messages`);
  } finally {
    await db.destroy();
    await Promise.all([...children].map((child) => tools.stop(child)));
    sink.kill();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

async function campaignWhileOneLeaves(
  signal: NodeJS.Signals,
  instances: Array<{ child: ChildProcess; base: string }>,
  db: DB,
  sink: ChildProcess,
  tools: CampaignInstancesTools,
): Promise<Outcome> {
  const [first, second] = instances;
  const call = async (base: string, pathname: string, method = "GET", body?: unknown) => {
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const token = ((await login.json()) as { accessToken?: string }).accessToken;
    if (!token) tools.fail(`the bench admin could not log in (${login.status})`);
    const response = await fetch(`${base}/api/email${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as { success: boolean; message: string; data: Record<string, unknown> };
  };
  // made on one instance, started on the other
  const created = await call(first.base, "/campaigns", "POST", {
    name: `Bench ${signal}`,
    subject: `News for {{userName}} (${signal})`,
    html_content: `<h1>Hello {{userName}}</h1>${"<p>New QC photos and price drops on {{siteName}}: {{siteUrl}}</p>".repeat(8)}<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>`,
    recipient_type: "all",
  });
  if (!created.success) tools.fail(`campaign: ${created.message}`);
  const id = created.data.id as number;
  const started = Date.now();
  const executed = await call(second.base, `/campaigns/${id}/execute`, "POST");
  if (!executed.success) tools.fail(`execute: ${executed.message}`);
  const audience = Number(executed.data.total_recipients);

  // a third of the way in, the instance holding the job leaves
  let stats = await tools.sinkStats(sink);
  while (stats.count < audience / 3) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    stats = await tools.sinkStats(sink);
  }
  const holder = await sql<{ claimed_by: string | null }>`
    SELECT j.claimed_by FROM jobs j JOIN email_campaign_runs r ON j.key = 'campaign-run:' || r.id
    WHERE r.campaign_id = ${id} AND j.status = 'running'`.execute(db);
  const pid = holder.rows[0]?.claimed_by?.split(":")[1];
  const leaving = instances.find((instance) => String(instance.child.pid) === pid);
  if (!leaving) tools.fail(`no instance holds the campaign's job (${holder.rows[0]?.claimed_by ?? "none"})`);
  const staying = instances.find((instance) => instance !== leaving)!;
  leaving.child.kill(signal);
  const leftAt = Date.now();
  const sentAtLeave = (await tools.sinkStats(sink)).count;
  await new Promise<void>((resolve) =>
    leaving.child.exitCode !== null || leaving.child.signalCode ? resolve() : leaving.child.once("exit", () => resolve()),
  );

  // until the other instance has sent the rest: the longest quiet spell at the sink after the leave
  let last = (await tools.sinkStats(sink)).count;
  let lastChange = leftAt;
  let stillMs = 0;
  let campaign: Record<string, unknown> = {};
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stats = await tools.sinkStats(sink);
    const now = Date.now();
    if (stats.count !== last) {
      stillMs = Math.max(stillMs, now - lastChange);
      last = stats.count;
      lastChange = now;
    }
    campaign = (await call(staying.base, `/campaigns/${id}`)).data;
    if (campaign.status === "completed" || campaign.status === "failed" || now > deadline) break;
  }
  stats = await tools.sinkStats(sink);
  return {
    signal,
    audience,
    received: stats.count,
    distinct: stats.distinct,
    repeated: stats.duplicates,
    uncertain: Number(campaign.uncertain_count ?? 0),
    sentAtLeave,
    stillSeconds: stillMs / 1000,
    seconds: ((stats.last || Date.now()) - started) / 1000,
    status: String(campaign.status),
  };
}
