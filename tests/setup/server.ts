/**
 * Starts the real built server (server/start.ts, the same code `npm start` runs) on a
 * free port with its own DATA_DIR, and stops it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { inject } from "vitest";
import { ROOT, TMP_ROOT } from "./paths";
import { startArgs, startEnv } from "../../server/start-command";
import { createTestDatabase, DATABASE_URL_FILE, databaseUrlOf } from "./postgres";
import { startRoundRobinProxy } from "../fakes/round-robin-proxy";
import { waitFor } from "./wait";

export type TestServer = {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** Sends a signal (default SIGTERM) and waits for the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  process: ChildProcess;
};

/** An address nothing listens on (port 9, discard): fetches fail at once. */
export const CLOSED_URL = "http://127.0.0.1:9/closed.json";
export const CLOSED_BASE = "http://127.0.0.1:9";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A new DATA_DIR for a server or script: with the migrated template database (SQLite, or
 * on PostgreSQL a copy of the template database named in the folder, see
 * tests/setup/postgres.ts), or empty (`fromTemplate: false`).
 */
export function makeDataDir(options: { fromTemplate?: boolean } = {}): string {
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(TMP_ROOT, "server-"));
  const fromTemplate = options.fromTemplate ?? true;
  if (fromTemplate) fs.copyFileSync(inject("templateDb"), path.join(dataDir, "app.db"));
  const postgres = inject("postgres");
  if (postgres) {
    const url = createTestDatabase(postgres.prefix, fromTemplate ? postgres.template : null);
    fs.writeFileSync(path.join(dataDir, DATABASE_URL_FILE), url);
  }
  return dataDir;
}

let probes = 0;

/**
 * Waits until the server has logged a request sent now (the line of a request goes out
 * once its answer has): every line it printed before, on stdout or stderr, is then in
 * output(). What a check that a line is not there, or there only once, waits for.
 */
export async function outputCaughtUp(server: Pick<TestServer, "url" | "output">): Promise<void> {
  const probe = `/healthz?caught-up=${process.pid}-${(probes += 1)}`;
  await (await fetch(`${server.url}${probe}`)).text();
  await waitFor(() => server.output().includes(` GET ${probe} `), { what: `the server's log line of GET ${probe}` });
}

/** Environment for a child process: the parent's, minus anything that would leak in. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("VITEST") || key.startsWith("UPLOADS_") || key === "DATABASE_PATH" || key === "DATABASE_URL") delete env[key];
  }
  Object.assign(env, startEnv(env));
  env.NODE_ENV = "production";
  env.LOG_LEVEL = "info";
  // a test folder on PostgreSQL names its database (makeDataDir)
  const databaseUrl = databaseUrlOf(extra.DATA_DIR);
  if (databaseUrl && !("DATABASE_URL" in extra)) env.DATABASE_URL = databaseUrl;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** The command of a project script: `start` is the compiled server as `npm start` runs it, the others scripts/NAME.ts. */
function scriptArgs(name: string): string[] {
  return name === "start" ? startArgs() : ["--import", "tsx", path.join(ROOT, "scripts", `${name}.ts`)];
}

/** Runs a project script to completion. */
export async function runScript(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...scriptArgs(name), ...args], {
    cwd: ROOT,
    env: childEnv(env),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

type ServerOptions = { dataDir?: string; env?: Record<string, string | undefined>; timeoutMs?: number };

/**
 * TEST_CLUSTER=1 (with TEST_DATABASE_URL): every server a test starts is two instances on
 * its one PostgreSQL database and data folder, started together (as `docker compose up`
 * starts them), behind a round-robin proxy whose address is the server's. A check of the
 * whole suite against many instances, run by hand (docs/testing.md), not by `npm test`:
 * tests of one process's own behaviour (its output, its signals) do not hold there.
 */
const CLUSTER = process.env.TEST_CLUSTER === "1";

export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? makeDataDir();
  // a server on SQLite, or on a port of its own (or with a reference beside it), stays one process
  const onPostgres = databaseUrlOf(dataDir) && !("DATABASE_URL" in (options.env ?? {}));
  if (!CLUSTER || !onPostgres || options.env?.PORT || options.env?.REFERENCE_PORT) return startOneServer({ ...options, dataDir });
  // the proxy is one more hop: a test sending its own X-Forwarded-For (TRUST_PROXY=1) keeps it
  const trusted = Number(options.env?.TRUST_PROXY ?? 0);
  const proxy = await startRoundRobinProxy([], { keepForwardedFor: trusted > 0 });
  // the site's address is the proxy's, as a self-hoster sets it (PUBLIC_URL), where the
  // tests expect it (localhost and the server's port)
  const env = {
    PUBLIC_URL: `http://localhost:${new URL(proxy.url).port}`,
    ...options.env,
    TRUST_PROXY: String(trusted + 1),
  };
  const instances = await Promise.all([startOneServer({ ...options, dataDir, env }), startOneServer({ ...options, dataDir, env })]);
  proxy.setBackends(instances.map((instance) => instance.url));
  return {
    url: proxy.url,
    port: Number(new URL(proxy.url).port),
    dataDir,
    output: () => instances.map((instance) => instance.output()).join("\n"),
    process: instances[0].process,
    stop: async (signal = "SIGTERM") => {
      const [code] = await Promise.all(instances.map((instance) => instance.stop(signal)));
      await proxy.close();
      return code;
    },
  };
}

async function startOneServer(options: ServerOptions): Promise<TestServer> {
  const dataDir = options.dataDir ?? makeDataDir();
  const port = await freePort();
  const child = spawn(process.execPath, scriptArgs("start"), {
    cwd: ROOT,
    env: childEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "admin-password-test",
      // no outside service is ever reached from a test: a closed local port unless a test
      // starts its own fake rate server
      RATES_URL: CLOSED_URL,
      RATES_BACKUP_URL: CLOSED_URL,
      MARKETPLACE_BASE_URL: CLOSED_BASE,
      // the listing watch runs only in the tests about it
      LISTING_CHECKS_PER_HOUR: "0",
      ...options.env,
    }),
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let ready = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ready) {
    child.kill("SIGKILL");
    throw new Error(`server did not start (exit ${child.exitCode}):\n${output}`);
  }

  return {
    url,
    port,
    dataDir,
    output: () => output,
    process: child,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
