/**
 * `npm run bench -- --postgres URL [--instances N] [--data-dir DIR]`: the app on PostgreSQL,
 * one instance and then N (default 2) side by side, against the raw node:http baseline
 * (docs/performance.md, "Many instances"). The load generator sends each instance an
 * equal share of the clients, as a round-robin proxy would (without the proxy's own cost).
 *
 * The database at URL must hold the benchmark catalogue, or be empty: it is then filled
 * from the SQLite benchmark database of --data-dir (made with `npm run bench -- --db-only
 * --data-dir DIR`), migrated and copied with `npm run db:copy`.
 *
 * Measured: product pages and searches (each address new, so no stored answer answers them)
 * in req/s and latency for each count of instances, and the search's latency from one
 * client (what one search costs on PostgreSQL).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type autocannon from "autocannon";
import { sql } from "kysely";
import { createKysely, createPostgresKysely, createPostgresPool, openSqlite, type DB } from "../db/connection";
import { searchProducts, splitTerms } from "../app/models/product.server";
import { startArgs, startEnv } from "../server/start-command";

export type InstancesBenchTools = {
  cannon: (url: string, seconds: number, rotate?: string[], connections?: number) => Promise<autocannon.Result>;
  startRawServer: (port: number) => ChildProcess;
  freePort: () => Promise<number>;
  waitFor: (url: string, child: ChildProcess, seconds: number) => Promise<void>;
  stop: (child: ChildProcess) => Promise<void>;
  say: (text: string) => void;
  fail: (message: string) => never;
};

/**
 * A control group of the Linux CPU controller (cgroup v2, else v1) that lets its processes
 * use `share` of one core: cfs quota = share × period. An instance started in one stands
 * for an instance on a machine of its own, or with cores to spare, on a box whose cores
 * PostgreSQL and the load generator also need. Null when the machine has no writable one.
 */
export function cpuShareGroup(name: string, share: number): { path: string; remove: () => void } | null {
  const period = 100_000;
  const quota = Math.round(share * period);
  const v2 = "/sys/fs/cgroup";
  const v1 = "/sys/fs/cgroup/cpu";
  try {
    if (fs.existsSync(path.join(v2, "cgroup.controllers"))) {
      const dir = path.join(v2, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "cpu.max"), `${quota} ${period}`);
      return { path: path.join(dir, "cgroup.procs"), remove: () => fs.rmdirSync(dir) };
    }
    if (fs.existsSync(path.join(v1, "cpu.cfs_quota_us"))) {
      const dir = path.join(v1, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(period));
      fs.writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(quota));
      return { path: path.join(dir, "cgroup.procs"), remove: () => fs.rmdirSync(dir) };
    }
  } catch {
    // not root, or a read-only /sys: no groups here
  }
  return null;
}

/**
 * One app instance on the PostgreSQL database at `url`, with a data folder of its own; `env`
 * adds to the bench's settings. With `cpuGroup` (cgroup.procs of a cpuShareGroup), the
 * instance enters the group before node starts, so every process it starts is held to it.
 */
export function spawnInstance(root: string, url: string, port: number, env: Record<string, string> = {}, cpuGroup?: string): ChildProcess {
  const command = cpuGroup ? "/bin/sh" : process.execPath;
  const args = cpuGroup ? ["-c", 'echo $$ > "$0" && exec "$@"', cpuGroup, process.execPath, ...startArgs()] : startArgs();
  return spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      ...startEnv(),
      DATABASE_URL: url,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "qc-bench-instance-")),
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      LISTING_CHECKS_PER_HOUR: "0",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

export type InstancesBenchOptions = {
  url: string;
  instances: number;
  products: number;
  duration: number;
  warmup: number;
  connections: number;
  dataDir?: string;
  root: string;
  /** each instance held to this share of one core (a cgroup's CPU quota); none when undefined */
  instanceCpu?: number;
};

/** The searches measured: words of both languages, filters and sorts (the main bench's set). */
const SEARCHES = [
  "/api/products/search?q=hoodie",
  `/api/products/search?q=${encodeURIComponent("连帽卫衣")}`,
  `/api/products/search?q=${encodeURIComponent("耐克")}`,
  "/api/products/search?q=hoodie&platform=weidian&minPrice=50&sortBy=price_asc",
  `/api/products/search?q=${encodeURIComponent("连帽卫衣")}&platform=taobao&hasQc=1&sortBy=qc`,
  "/api/products/search?q=jacket&hasQc=1&minPrice=100&sortBy=price_desc",
  "/api/products/search?q=sneakers&platform=1688&platform=weidian&sortBy=popular",
  `/api/products/search?q=${encodeURIComponent("外套")}&minPrice=100&maxPrice=900&sortBy=price_asc`,
];

type Measured = { reqPerSec: number; p50: number; p99: number; errors: number };

export async function benchInstances(options: InstancesBenchOptions, tools: InstancesBenchTools): Promise<void> {
  const { say, fail } = tools;
  const redacted = options.url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
  say(`instances: PostgreSQL at ${redacted}, 1 and ${options.instances} instances`);
  const products = await ensureCatalogue(options, tools);
  say(`database: ${products.toLocaleString("en")} products`);

  if (options.dataDir) await compareSearches(options, tools);

  const raw = tools.startRawServer(await tools.freePort());
  const started: ChildProcess[] = [raw];
  const bases: string[] = [];
  const groups: Array<{ remove: () => void }> = [];
  const startInstance = async () => {
    const port = await tools.freePort();
    let cpuGroup: string | undefined;
    if (options.instanceCpu !== undefined) {
      const group = cpuShareGroup(`qc-bench-instance-${port}`, options.instanceCpu);
      if (!group) throw new Error("--instance-cpu needs a writable cgroup CPU controller (root on Linux)");
      groups.push(group);
      cpuGroup = group.path;
    }
    const child = spawnInstance(options.root, options.url, port, {}, cpuGroup);
    started.push(child);
    const base = `http://127.0.0.1:${port}`;
    await tools.waitFor(`${base}/healthz`, child, 120);
    bases.push(base);
  };
  process.once("exit", () => {
    for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  });

  try {
    const rawPort = Number((raw.spawnargs.at(-1) ?? "").match(/listen\((\d+)/)?.[1]);
    await tools.waitFor(`http://127.0.0.1:${rawPort}/`, raw, 20);
    await startInstance();
    // 200 products across the catalogue, at the addresses they settle on (/product/ID redirects to /PLATFORM/ITEM)
    const productPaths: string[] = [];
    for (let n = 1; n <= 200; n++) {
      const response = await fetch(`${bases[0]}/product/${Math.floor((n * products) / 201)}`, { redirect: "manual" });
      await response.arrayBuffer();
      const location = response.headers.get("location");
      if (response.status === 200 || location)
        productPaths.push(`${location ? new URL(location, bases[0]).pathname : `/product/${Math.floor((n * products) / 201)}`}?v=1`);
    }
    const searchPaths = SEARCHES.map((search) => `${search}&v=1`);

    /** Load spread over the first `count` instances, each address new; req/s summed, latency the worst. */
    const load = async (count: number, rotate: string[], connections = options.connections): Promise<Measured> => {
      const share = Math.max(1, Math.round(connections / count));
      const targets = bases.slice(0, count);
      if (options.warmup > 0) await Promise.all(targets.map((base) => tools.cannon(`${base}${rotate[0]}`, options.warmup, rotate, share)));
      const results = await Promise.all(targets.map((base) => tools.cannon(`${base}${rotate[0]}`, options.duration, rotate, share)));
      return {
        reqPerSec: results.reduce((sum, result) => sum + result.requests.average, 0),
        p50: Math.max(...results.map((result) => result.latency.p50)),
        p99: Math.max(...results.map((result) => result.latency.p99)),
        errors: results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0),
      };
    };

    const rawResult = await tools.cannon(`http://127.0.0.1:${rawPort}/`, options.duration);
    const rawRate = rawResult.requests.average;
    say(`  raw node:http: ${rawRate.toFixed(0)} req/s`);
    const table: Array<{ label: string; byCount: Map<number, Measured> }> = [
      { label: "product pages, each address new", byCount: new Map() },
      { label: "searches, each address new", byCount: new Map() },
      { label: "search latency, one client", byCount: new Map() },
    ];
    const measureAll = async (count: number) => {
      table[0].byCount.set(count, await load(count, productPaths));
      table[1].byCount.set(count, await load(count, searchPaths));
      table[2].byCount.set(count, await load(count, searchPaths, count));
      for (const row of table) {
        const result = row.byCount.get(count)!;
        say(
          `  ${count} instance${count > 1 ? "s" : ""}, ${row.label}: ${result.reqPerSec.toFixed(0)} req/s (${(result.reqPerSec / rawRate).toFixed(2)} × raw), p50 ${result.p50} ms, p99 ${result.p99} ms${result.errors ? `, ${result.errors} errors` : ""}`,
        );
      }
    };
    await measureAll(1);
    while (bases.length < options.instances) await startInstance();
    await measureAll(options.instances);

    say("");
    say(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}; ${
        options.instanceCpu !== undefined
          ? `each instance held to ${options.instanceCpu} of a core (cgroup CPU quota), PostgreSQL and the load generator on the rest`
          : "the instances, PostgreSQL and the load generator share it"
      }`,
    );
    say(`| | 1 instance | ${options.instances} instances | ratio |`);
    say("|---|---|---|---|");
    for (const row of table) {
      const one = row.byCount.get(1)!;
      const many = row.byCount.get(options.instances)!;
      say(
        `| ${row.label} | ${one.reqPerSec.toFixed(0)} req/s, p99 ${one.p99} ms | ${many.reqPerSec.toFixed(0)} req/s, p99 ${many.p99} ms | ${(many.reqPerSec / one.reqPerSec).toFixed(2)} × |`,
      );
    }
  } catch (error) {
    fail((error as Error).message);
  } finally {
    await Promise.all(started.map((child) => tools.stop(child)));
    for (const group of groups) {
      try {
        group.remove();
      } catch {
        // still emptying: the kernel removes nothing while a process is in it
      }
    }
  }
}

/** The products in the database; an empty one is filled from the SQLite benchmark database of --data-dir. */
async function ensureCatalogue(options: InstancesBenchOptions, tools: InstancesBenchTools): Promise<number> {
  const db = createPostgresKysely(createPostgresPool(options.url, { max: 1 }));
  const count = async () =>
    Number((await sql<{ n: number }>`SELECT count(*) AS n FROM products`.execute(db).catch(() => ({ rows: [{ n: 0 }] }))).rows[0]?.n ?? 0);
  try {
    const have = await count();
    if (have > 0) return have;
    if (!options.dataDir)
      tools.fail(
        "the PostgreSQL database is empty: give --data-dir DIR with a benchmark database (npm run bench -- --db-only --data-dir DIR)",
      );
    const file = path.join(options.dataDir, "app.db");
    if (!fs.existsSync(file)) tools.fail(`no benchmark database at ${file} (npm run bench -- --db-only --data-dir ${options.dataDir})`);
    tools.say(`database: copying ${file} into PostgreSQL (npm run migrate, then npm run db:copy) …`);
    const runScript = (name: string, args: string[], env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [path.join(options.root, "scripts", "run.mjs"), name, ...args], {
        cwd: options.root,
        stdio: "inherit",
        env,
      }).status;
    const sqliteEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: options.dataDir };
    delete sqliteEnv.DATABASE_URL;
    if (runScript("migrate", [], sqliteEnv) !== 0) tools.fail("migrating the SQLite benchmark database failed");
    if (runScript("db-copy", [file, options.url], process.env) !== 0) tools.fail("npm run db:copy failed");
    return await count();
  } finally {
    await db.destroy();
  }
}

/**
 * The same 200 searches on the SQLite benchmark database and on its copy in PostgreSQL
 * (in-process, through the model): how many give the same first ten in relevance order
 * (target: 95 %), and what a search costs on PostgreSQL (p50, p99; target p99 ≤ 20 ms at
 * 100,000 products). The searches are words of the catalogue's own names (every 500th
 * product's), in both languages, alone and in pairs, plus 1–2 character terms.
 */
async function compareSearches(options: InstancesBenchOptions, tools: InstancesBenchTools): Promise<void> {
  const file = path.join(options.dataDir!, "app.db");
  if (!fs.existsSync(file)) return;
  const sqlite: DB = createKysely(openSqlite(file));
  const postgres: DB = createPostgresKysely(createPostgresPool(options.url, { max: 2 }));
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM products WHERE id % 500 = 0 ORDER BY id`.execute(sqlite);
    const words = [...new Set(rows.flatMap((row) => row.name.toLowerCase().split(/\s+/)).filter((word) => Array.from(word).length >= 2))];
    const queries = [
      ...words.slice(0, 120),
      ...words.slice(0, 60).map((word, n) => `${word} ${words[(n * 7 + 3) % words.length]}`),
      ...["鞋", "衣", "黑", "白", "包", "帽", "耐克", "外套", "卫衣", "tn", "nb", "af", "1", "2", "3", "x", "z", "aj", "lv", "北面"],
    ].slice(0, 200);
    let same = 0;
    const costs: number[] = [];
    for (const q of queries) {
      const search = (db: DB) => searchProducts(db, splitTerms(q), { page: 1, limit: 10, sort: "relevance", listedOnly: true });
      const onSqlite = await search(sqlite);
      const started = performance.now();
      const onPostgres = await search(postgres);
      costs.push(performance.now() - started);
      if (onSqlite.items.map((item) => item.id).join() === onPostgres.items.map((item) => item.id).join()) same += 1;
    }
    // each search again, the cost of a search the database has just seen
    const again: number[] = [];
    for (const q of queries) {
      const started = performance.now();
      await searchProducts(postgres, splitTerms(q), { page: 1, limit: 10, sort: "relevance", listedOnly: true });
      again.push(performance.now() - started);
    }
    const percentile = (list: number[], p: number) =>
      [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))];
    tools.say(
      `search parity: ${same} of ${queries.length} searches give the same first ten on SQLite and PostgreSQL (${((100 * same) / queries.length).toFixed(1)} %)`,
    );
    tools.say(
      `search on PostgreSQL, one at a time: first time p50 ${percentile(costs, 0.5).toFixed(1)} ms, p99 ${percentile(costs, 0.99).toFixed(1)} ms; again p50 ${percentile(again, 0.5).toFixed(1)} ms, p99 ${percentile(again, 0.99).toFixed(1)} ms`,
    );
  } finally {
    await Promise.all([sqlite.destroy(), postgres.destroy()]);
  }
}
