/**
 * Stops that lose nothing (docs/decisions/036-stops-that-lose-nothing.md), as a self-hoster's
 * tools send them: SIGTERM to `npm start`'s own process, SIGINT to the whole process group
 * (Ctrl-C, systemd's default), each under load; with Litestream on, every write the server
 * acknowledged is in the replica afterwards; no request the server had received is reset.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { apiLogin, TEST_ADMIN } from "../setup/api-client";
import { ROOT } from "../setup/paths";
import { childEnv, freePort, makeDataDir, runScript, startTestServer } from "../setup/server";

/** Keep-alive clients sending one request after the other until told to stop; what each request met. */
function keepAliveLoad(port: number, clients: number, makeRequest: (n: number) => { method: string; path: string; body?: string }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const outcomes = { answered: 0, refused: 0, reset: [] as string[], statuses: new Map<number, number>() };
  let running = true;
  let count = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const { method, path: requestPath, body } = makeRequest(count++);
      const request = http.request(
        {
          host: "127.0.0.1",
          port,
          path: requestPath,
          method,
          agent,
          headers: body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {},
        },
        (response) => {
          response.resume();
          response.on("end", () => {
            outcomes.answered += 1;
            outcomes.statuses.set(response.statusCode ?? 0, (outcomes.statuses.get(response.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
          response.on("error", (error) => {
            outcomes.reset.push(`${method} ${requestPath}: ${error.message}`);
            resolve();
          });
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) => {
        // a new connection the stopped server no longer takes: the request never reached it
        if (error.code === "ECONNREFUSED") outcomes.refused += 1;
        else outcomes.reset.push(`${method} ${requestPath}: ${error.code ?? error.message}`);
        resolve();
      });
      request.end(body);
    });
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const before = outcomes.refused;
      await one();
      // refused: the server is gone; nothing more to send
      if (outcomes.refused > before) break;
    }
  });
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createdCategory(port: number, token: string, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ name });
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/admin/categories",
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 201));
        response.on("error", () => resolve(false));
      },
    );
    request.on("error", () => resolve(false));
    request.end(body);
  });
}

/** Writers creating categories one after the other until the server is gone; the names it acknowledged. */
function writers(server: { port: number; gone: () => boolean }, token: string, count: number) {
  const acknowledged: string[] = [];
  let running = true;
  const loops = Array.from({ length: count }, async (_, writer) => {
    for (let n = 0; running; n++) {
      const name = `Drill ${writer}-${n}`;
      if (await createdCategory(server.port, token, name)) acknowledged.push(name);
      else if (server.gone()) break;
      // refused while the server stops: a moment before the next try
      else await sleep(20);
    }
  });
  return {
    acknowledged,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe("a stop", () => {
  it("resets no request the server has received: answers in progress and requests on their way get Connection: close", async () => {
    const server = await startTestServer();
    const load = keepAliveLoad(server.port, 40, (n) => ({ method: "GET", path: n % 2 ? "/healthz" : "/api/categories" }));
    // the load runs for a set time before the stop (a drill, not a wait for something)
    await sleep(1500);
    const stopped = server.stop("SIGTERM");
    const startedAt = Date.now();
    expect(await stopped).toBe(0);
    const tookMs = Date.now() - startedAt;
    await load.stop();
    expect(load.outcomes.reset, `${load.outcomes.answered} answered, ${load.outcomes.refused} refused`).toEqual([]);
    expect(load.outcomes.answered).toBeGreaterThan(200);
    // under load, within 5 s
    expect(tookMs).toBeLessThan(5000);
  }, 60_000);
});

/** `npm start` in a process group of its own, as a terminal or a service manager starts it. */
async function npmStart(env: Record<string, string>) {
  const port = await freePort();
  const npm = spawn("npm", ["start"], {
    cwd: ROOT,
    env: childEnv({
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      RATES_URL: "http://127.0.0.1:9/closed.json",
      RATES_BACKUP_URL: "http://127.0.0.1:9/closed.json",
      LISTING_CHECKS_PER_HOUR: "0",
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  npm.stdout.on("data", (chunk) => (output += chunk));
  npm.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !output.includes("listening on")) await sleep(100);
  expect(output).toContain("listening on");
  return { npm, port, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** The pid of the node process `npm start` runs (its child: npm's shell became node). */
function serverPid(npmPid: number): number {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === npmPid && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("server/start.mjs")) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no server process under npm (${npmPid})`);
}

const listening = (url: string) =>
  fetch(`${url}/healthz`).then(
    () => true,
    () => false,
  );

describe("a stop of `npm start` with Litestream on, under load", () => {
  for (const target of ["npm", "node", "group"] as const) {
    it(`sent to ${target === "group" ? "the whole process group (Ctrl-C, systemd)" : `${target}'s process`}: the server stops gracefully and every acknowledged write is in the replica`, async () => {
      const dataDir = makeDataDir();
      const replica = path.join(makeDataDir({ fromTemplate: false }), "replica");
      const started = await npmStart({ DATA_DIR: dataDir, LITESTREAM_REPLICA_URL: replica });
      const pid = serverPid(started.npm.pid!);
      const token = (await apiLogin(started.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
      const server = { port: started.port, gone: () => started.npm.exitCode !== null };
      const load = writers(server, token, 6);
      // the writers run for a set time before the stop (a drill, not a wait for something)
      await sleep(1500);
      const signal = target === "group" ? "SIGINT" : "SIGTERM";
      if (target === "npm") process.kill(started.npm.pid!, signal);
      else if (target === "node") process.kill(pid, signal);
      else process.kill(-started.npm.pid!, signal);
      await started.exited;
      await load.stop();
      try {
        expect(await listening(started.url), started.output()).toBe(false);
        expect(started.output()).toContain(`${signal}: finishing requests and jobs`);
        expect(load.acknowledged.length).toBeGreaterThan(20);

        // the box is lost: the replica is all there is
        const restored = path.join(makeDataDir({ fromTemplate: false }), "restored");
        const restore = await runScript("restore", [replica, restored], {});
        expect(restore.code, restore.stderr + restore.stdout).toBe(0);
        const copy = new SQLite(path.join(restored, "app.db"), { readonly: true });
        const names = new Set((copy.prepare("SELECT name FROM categories").all() as Array<{ name: string }>).map((row) => row.name));
        copy.close();
        const missing = load.acknowledged.filter((name) => !names.has(name));
        expect(missing, `${missing.length} of ${load.acknowledged.length} acknowledged writes missing`).toEqual([]);
      } finally {
        // whatever a failed stop left behind
        try {
          process.kill(-started.npm.pid!, "SIGKILL");
        } catch {
          // the group is gone: as it should be
        }
      }
    }, 120_000);
  }
});
