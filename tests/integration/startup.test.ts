/** Starting, restarting and stopping the real server, and refusing bad configuration. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../fakes/email";
import { startFakeMarketplace } from "../fakes/marketplace";
import { startFakeRates } from "../fakes/rates";
import { TEST_ADMIN } from "../setup/api-client";
import { formLogin, postForm } from "../setup/page-client";
import { spawn } from "node:child_process";
import { startArgs } from "../../server/start-command";
import { ROOT } from "../setup/paths";
import { DATABASE_URL_FILE, databaseUrlOf } from "../setup/postgres";
import { childEnv, CLOSED_URL, freePort, makeDataDir, outputCaughtUp, runScript, startTestServer } from "../setup/server";
import { openServerDb, row, rows, run, sql, withServerDb } from "../setup/server-db";
import { waitFor } from "../setup/wait";
import { rawGet } from "./http";

describe("npm start", () => {
  it("creates everything on an empty DATA_DIR, and a second start keeps it all", async () => {
    const parent = makeDataDir({ fromTemplate: false });
    const dataDir = path.join(parent, "nested", "data");
    // on PostgreSQL: the empty database made for the parent folder (the server makes the nested one)
    const databaseUrl = databaseUrlOf(parent);
    const first = await startTestServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
    expect(first.output()).toContain("migrations applied");
    await first.stop();

    if (databaseUrl) fs.writeFileSync(path.join(dataDir, DATABASE_URL_FILE), databaseUrl);
    else expect(fs.existsSync(path.join(dataDir, "app.db"))).toBe(true);
    expect(fs.statSync(path.join(dataDir, "uploads")).isDirectory()).toBe(true);
    const secretsFile = path.join(dataDir, "secrets.json");
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    const secrets = fs.readFileSync(secretsFile, "utf8");

    // data written while the server is down must survive the next start
    await withServerDb(dataDir, (db) =>
      db.updateTable("site_settings").set({ value: "Kept Shop" }).where("key", "=", "site_name").execute(),
    );
    fs.writeFileSync(path.join(dataDir, "uploads", "kept.txt"), "kept");

    const second = await startTestServer({ dataDir });
    try {
      expect(second.output()).not.toContain("migrations applied");
      const info = await (await fetch(`${second.url}/api/site-settings/site-info`)).json();
      expect(info.data.site_name).toBe("Kept Shop");
      expect(await (await fetch(`${second.url}/uploads/kept.txt`)).text()).toBe("kept");
      expect(fs.readFileSync(secretsFile, "utf8")).toBe(secrets);
      const home = await (await fetch(`${second.url}/`)).text();
      expect(home).toContain("Kept Shop");
    } finally {
      await second.stop();
    }
  });

  it("runs in production mode without NODE_ENV (as `npm start` does): React's production build, no stack traces", async () => {
    const server = await startTestServer({ env: { NODE_ENV: undefined } });
    try {
      // the line comes once the background work has started, which may be just after the first answer
      await waitFor(() => server.output().includes("listening on"), {
        what: "the line 'listening on'",
        timeoutMs: 5000,
        detail: server.output,
      });
      expect(server.output()).toMatch(/NODE_ENV production, React production build\)/);
      for (const requestPath of ["/%E0%A4%A", "/api/%E0%A4%A", "/product/%E0%A4%A"]) {
        const response = await rawGet(server.port, requestPath);
        expect(response.status, requestPath).toBe(404);
        expect(response.body, requestPath).not.toMatch(/URIError|\n\s+at |node_modules|<pre>/);
      }
    } finally {
      await server.stop();
    }
  });

  it("stops gracefully on SIGTERM with exit code 0 and a closed database", async () => {
    const server = await startTestServer();
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(server.output()).toContain("SIGTERM");
    // a closed WAL database leaves no -wal content behind to replay (SQLite: PostgreSQL has no file here)
    if (!databaseUrlOf(server.dataDir)) {
      const wal = path.join(server.dataDir, "app.db-wal");
      expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
    }
  });

  it("answers a request in flight when the stop comes, and stops as soon as it is answered", async () => {
    const fake = await startFakeMarketplace();
    const server = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "5000" } });
    try {
      const itemId = "7300000124";
      fake.set("weidian", itemId, { title: "Fetched while stopping", price: 12, delayMs: 1000 });
      const cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const sent = postForm(server.url, "/import", cookie, { link: `https://weidian.com/item.html?itemID=${itemId}` });
      await until(() => fake.hits("weidian", itemId) > 0);
      const stopAt = Date.now();
      const stopped = server.stop("SIGTERM");
      expect((await sent).headers.get("location")).toBe(`/weidian/${itemId}`);
      expect(await stopped).toBe(0);
      // not the 10 s a kept-alive connection was given before it was cut off (Docker's
      // default stop timeout is 10 s: past it, the process is killed)
      expect(Date.now() - stopAt).toBeLessThan(5_000);
    } finally {
      await server.stop();
      await fake.close();
    }
  });

  it("stops at once on a SIGTERM that comes while it starts (migrating, seeding), and starts cleanly afterwards", async () => {
    const dataDir = makeDataDir({ fromTemplate: false });
    const child = spawn(process.execPath, startArgs(), {
      cwd: ROOT,
      env: childEnv({
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        SEED_DEMO: "1",
        RATES_URL: CLOSED_URL,
        RATES_BACKUP_URL: CLOSED_URL,
        LISTING_CHECKS_PER_HOUR: "0",
      }),
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    // as soon as it works on its database (opened to migrate it): the migrations and the demo
    // seed take far longer than a check of this
    const database = databaseUrlOf(dataDir) ? openServerDb(dataDir) : null;
    const opened = async () => {
      if (!database) return fs.existsSync(path.join(dataDir, "app.db"));
      const others = sql<{ n: number }>`
        SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      return Number((await row(database, others))?.n) > 0;
    };
    try {
      await waitFor(opened, { what: "the starting server opening its database", detail: () => output });
    } finally {
      await database?.close();
    }
    const sent = performance.now();
    child.kill("SIGTERM");
    // before it serves, a stop has its default effect: the process ends, nothing to finish
    const end = await exited;
    expect(end.code === 0 || end.signal === "SIGTERM", JSON.stringify(end)).toBe(true);
    expect(performance.now() - sent).toBeLessThan(2000);
    expect(output).not.toContain("listening on");

    // whatever the stop interrupted is done again (or was never begun) on the next start
    const again = await startTestServer({ dataDir, env: { SEED_DEMO: "1" } });
    try {
      const products = (await (await fetch(`${again.url}/api/products?limit=5`)).json()) as { totalItems: number };
      expect(products.totalItems).toBeGreaterThan(0);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it("runs the background jobs: the periodic ones are queued at start, the rate refresh runs without a page view, a stop hands nothing back as running", async () => {
    const rates = await startFakeRates();
    const server = await startTestServer({ env: { RATES_URL: rates.primaryUrl, RATES_BACKUP_URL: rates.backupUrl } });
    try {
      await waitFor(() => rates.hits.primary > 0, { what: "the rate refresh asking the primary rate file", timeoutMs: 5000 });
      expect(rates.hits.primary).toBe(1);
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
      await rates.close();
    }
    const { jobs, state } = await withServerDb(server.dataDir, async (db) => ({
      jobs: await rows(db, sql`SELECT key, status FROM jobs ORDER BY key`),
      state: (await row(db, sql<{ auto_updated_at: string | null }>`SELECT auto_updated_at FROM exchange_rate_state`))!,
    }));
    expect(jobs).toEqual([
      { key: "every:blog.publish-scheduled", status: "pending" },
      { key: "every:email.scheduler", status: "pending" },
      { key: "every:jobs.cleanup", status: "pending" },
      { key: "every:photos.sync", status: "pending" },
      { key: "every:prices.alerts", status: "pending" },
      { key: "every:rates.refresh", status: "pending" },
    ]);
    expect(state.auto_updated_at).not.toBeNull();
  });

  it("reads the client address from X-Forwarded-For only when TRUST_PROXY is set", async () => {
    const direct = await startTestServer();
    const proxied = await startTestServer({ env: { TRUST_PROXY: "1" } });
    try {
      for (const server of [direct, proxied]) {
        await fetch(`${server.url}/healthz?probe=ip`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
      }
      const line = (output: string) => output.split("\n").find((l) => l.includes("/healthz?probe=ip")) ?? "";
      for (const server of [direct, proxied]) {
        await waitFor(() => line(server.output()), { what: `the log line of /healthz?probe=ip (${server.url})`, detail: server.output });
      }
      expect(line(direct.output())).toMatch(/ 127\.0\.0\.1 GET /);
      expect(line(proxied.output())).toMatch(/ 203\.0\.113\.9 GET /);
    } finally {
      await direct.stop();
      await proxied.stop();
    }
  });

  it("says at the start what an unset TRUST_PROXY means, and warns once at the first request a proxy forwarded", async () => {
    const unset = await startTestServer({ env: { TRUST_PROXY: undefined } });
    const none = await startTestServer({ env: { TRUST_PROXY: "0" } });
    const trusted = await startTestServer({ env: { TRUST_PROXY: "1" } });
    const lines = (output: string, text: string) => output.split("\n").filter((line) => line.includes(text));
    try {
      const started = lines(unset.output(), "TRUST_PROXY is unset:");
      expect(started).toHaveLength(1);
      expect(started[0]).toContain(" INFO ");
      expect(started[0]).toContain("set TRUST_PROXY=1 (the number of proxies in front)");
      // nothing forwarded yet: no warning (the start's own health checks carry no proxy header)
      expect(lines(unset.output(), "while TRUST_PROXY is unset")).toHaveLength(0);
      for (const server of [unset, none, trusted]) {
        // the first answered by the server's front (server/front.ts: /api/categories is
        // one of its routes) before express runs, the others by express
        await fetch(`${server.url}/api/categories`, { headers: { "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https" } });
        await fetch(`${server.url}/healthz?probe=forwarded`, { headers: { "X-Forwarded-For": "203.0.113.8" } });
        await fetch(`${server.url}/healthz?probe=forwarded`, { headers: { Forwarded: "for=203.0.113.9" } });
      }
      // everything the three printed for these requests is in their output, the warning too
      await Promise.all([unset, none, trusted].map(outputCaughtUp));
      const warned = lines(unset.output(), "while TRUST_PROXY is unset");
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain(" WARN ");
      expect(warned[0]).toContain("a request from 127.0.0.1 carries x-forwarded-for, x-forwarded-proto while TRUST_PROXY is unset");
      // TRUST_PROXY given (0: no proxy; 1: one): nothing to say
      for (const server of [none, trusted]) {
        expect(lines(server.output(), "TRUST_PROXY is unset")).toHaveLength(0);
        expect(lines(server.output(), "while TRUST_PROXY is unset")).toHaveLength(0);
      }
    } finally {
      await Promise.all([unset.stop(), none.stop(), trusted.stop()]);
    }
  });

  it.each([
    ["PORT", "not-a-port"],
    ["PUBLIC_URL", "nope"],
    ["ACCESS_TOKEN_TTL", "-1"],
    ["SMTP_URL", "mail.example.com"],
  ])("refuses to start with %s=%s and names the variable in one line", async (variable, value) => {
    const dataDir = makeDataDir();
    const result = await runScript("start", [], { DATA_DIR: dataDir, PORT: "0", [variable]: value });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.split("\n").filter((l) => l.trim() && !l.includes("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
  });
});

describe("the maintenance scripts as the production image runs them (compiled, no tsx)", () => {
  // build/server/backup.js (the SQLite file's copy) is tested in backup.test.ts
  it("build/server/migrate.js migrates a new database", async () => {
    const dataDir = makeDataDir({ fromTemplate: false });
    const run = (name: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, "build", "server", `${name}.js`)], {
          cwd: ROOT,
          env: childEnv({ DATA_DIR: dataDir }),
        });
        let out = "";
        child.stdout.on("data", (chunk) => (out += chunk));
        child.stderr.on("data", (chunk) => (out += chunk));
        child.on("close", (code) => resolve({ code, out }));
      });
    const migrated = await run("migrate");
    expect(migrated.code, migrated.out).toBe(0);
    expect(migrated.out).toContain("applied:");
  });
});

describe("npm run migrate", () => {
  it("migrates a new database and is idempotent", async () => {
    const dataDir = makeDataDir({ fromTemplate: false });
    const first = await runScript("migrate", [], { DATA_DIR: dataDir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("applied");
    const second = await runScript("migrate", [], { DATA_DIR: dataDir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("up to date");
  });

  it("exits non-zero when the migration fails", async () => {
    const dataDir = makeDataDir({ fromTemplate: false });
    // a database that already holds a conflicting table the first migration cannot create
    const db = openServerDb(dataDir, { create: true });
    await run(db, sql`CREATE TABLE site_settings (unrelated text)`);
    await db.close();
    const result = await runScript("migrate", [], { DATA_DIR: dataDir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("migration failed");
  });
});
