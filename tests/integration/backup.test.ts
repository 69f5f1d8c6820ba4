/**
 * Backups and restores: `npm run backup` copies a live database consistently while
 * another process writes; `npm run restore` puts a backup or a Litestream replica into a
 * new folder, checked; continuous backup with LITESTREAM_REPLICA_URL, a restore on a new
 * machine, and what a crash loses.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage } from "../setup/page-client";
import { ROOT } from "../setup/paths";
import { replicaCaughtUp } from "../setup/replica";
import { childEnv, makeDataDir, runScript, startTestServer } from "../setup/server";
import { waitFor } from "../setup/wait";

describe("npm run backup", () => {
  it("makes a copy that opens and passes integrity_check under concurrent writes", async () => {
    const dataDir = makeDataDir();
    const dbFile = path.join(dataDir, "app.db");
    const setup = new SQLite(dbFile);
    setup.pragma("journal_mode = WAL");
    setup.exec("CREATE TABLE load_test (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)");
    setup.close();

    // a separate process writing in small transactions for the whole backup
    const writerCode = `
      const SQLite = require("better-sqlite3");
      const db = new SQLite(process.argv[1]);
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 5000");
      const insert = db.prepare("INSERT INTO load_test (payload) VALUES (?)");
      const many = db.transaction((n) => { for (let i = 0; i < n; i++) insert.run("x".repeat(500)); });
      const until = Date.now() + 4000;
      let written = 0;
      process.stdout.write("started\\n");
      while (Date.now() < until) { many(50); written += 50; }
      db.close();
      process.stdout.write("written " + written + "\\n");
    `;
    const writer = spawn(process.execPath, ["-e", writerCode, dbFile], { cwd: process.cwd() });
    let writerOut = "";
    writer.stdout.on("data", (chunk) => (writerOut += chunk));
    writer.stderr.on("data", (chunk) => (writerOut += chunk));
    // the backup starts once the writer's first transactions are in (and it goes on writing)
    const reader = new SQLite(dbFile, { readonly: true });
    try {
      await waitFor(() => (reader.prepare("SELECT count(*) AS n FROM load_test").get() as { n: number }).n > 0, {
        what: "the writer's first rows",
        detail: () => writerOut,
      });
    } finally {
      reader.close();
    }

    const target = path.join(dataDir, "backups", "copy.db");
    const result = await runScript("backup", [target], { DATA_DIR: dataDir });
    expect(result.stderr).not.toContain("failed");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("integrity ok");
    // one self-contained file: nothing left beside it
    expect(fs.existsSync(`${target}-wal`)).toBe(false);
    expect(fs.existsSync(`${target}-shm`)).toBe(false);

    const writerCode_ = await new Promise<number | null>((resolve) => writer.on("close", resolve));
    expect(writerCode_, writerOut).toBe(0);

    const copy = new SQLite(target, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const copied = (copy.prepare("SELECT count(*) AS n FROM load_test").get() as { n: number }).n;
    const settings = (copy.prepare("SELECT count(*) AS n FROM site_settings").get() as { n: number }).n;
    copy.close();
    expect(copied).toBeGreaterThan(0);
    expect(settings).toBeGreaterThan(10);

    const live = new SQLite(dbFile, { readonly: true });
    const total = (live.prepare("SELECT count(*) AS n FROM load_test").get() as { n: number }).n;
    live.close();
    expect(copied).toBeLessThanOrEqual(total);
    expect(fs.statSync(target).size).toBeGreaterThan(0);
  });

  it("explains its usage without a file argument", async () => {
    const result = await runScript("backup", [], { DATA_DIR: makeDataDir() });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("usage: npm run backup -- <file>");
  });
});

describe("the backup script as the production image runs it (compiled, no tsx)", () => {
  it("build/server/backup.js copies the database", async () => {
    const dataDir = makeDataDir();
    const copy = path.join(dataDir, "copy.db");
    const backup = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, "build", "server", "backup.js"), copy], {
        cwd: ROOT,
        env: childEnv({ DATA_DIR: dataDir }),
      });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (out += chunk));
      child.on("close", (code) => resolve({ code, out }));
    });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain("integrity ok");
  });
});

async function adminToken(url: string): Promise<string> {
  return (await apiLogin(url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
}

async function makeCategory(url: string, token: string, name: string): Promise<number> {
  const made = await api(url, "/api/admin/categories", { token, body: { name } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.data.id as number;
}

/** What a signed-in visitor's next request on a restored shop needs: the signing secrets, the session, the refresh token. */
const SIGNED_IN = `SELECT 'secret ' || name FROM instance_secrets
  UNION ALL SELECT 'session ' || id FROM sessions
  UNION ALL SELECT 'refresh token ' || token_hash FROM refresh_tokens`;

const categoryNames = async (url: string) => ((await api(url, "/api/categories")).body.data as Array<{ name: string }>).map((c) => c.name);

describe("restoring from a plain backup, as docs/self-hosting.md says", () => {
  it("backup, new folder, restore, copy the uploads, start: everything is back", async () => {
    const started = Date.now();
    const server = await startTestServer();
    const token = await adminToken(server.url);
    await makeCategory(server.url, token, "Kept through a backup");
    fs.writeFileSync(path.join(server.dataDir, "uploads", "kept.txt"), "an upload");
    const backupFile = path.join(makeDataDir({ fromTemplate: false }), "shop-backup.db");
    // 1. npm run backup -- <file> (the server may keep running)
    const backup = await runScript("backup", [backupFile], { DATA_DIR: server.dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    await server.stop();

    // 2. npm run restore -- <file> <new folder>
    const newFolder = path.join(makeDataDir({ fromTemplate: false }), "restored");
    const restore = await runScript("restore", [backupFile, newFolder], {});
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("integrity ok");
    expect(restore.stdout).toMatch(/categories\s+\d+/);
    // 3. the uploads folder beside it
    fs.cpSync(path.join(server.dataDir, "uploads"), path.join(newFolder, "uploads"), { recursive: true });
    // 4. start with DATA_DIR=<new folder>
    const again = await startTestServer({ dataDir: newFolder });
    try {
      expect(await categoryNames(again.url)).toContain("Kept through a backup");
      expect(await (await fetch(`${again.url}/uploads/kept.txt`)).text()).toBe("an upload");
      // and the admin logs in with the password of before
      await adminToken(again.url);
    } finally {
      await again.stop();
    }
    // nothing is ever written over
    const twice = await runScript("restore", [backupFile, newFolder], {});
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain("exists: restore into a new folder");
    expect(Date.now() - started).toBeLessThan(5 * 60_000);
  }, 120_000);
});

describe("continuous backup (LITESTREAM_REPLICA_URL)", () => {
  it("replicates every write within a second; npm run restore and a new machine's start both bring it back", async () => {
    const replica = path.join(makeDataDir({ fromTemplate: false }), "replica");
    const server = await startTestServer({ env: { LITESTREAM_REPLICA_URL: replica } });
    const token = await adminToken(server.url);
    expect(server.output()).toContain("continuous backup: Litestream");
    for (let n = 0; n < 5; n++) await makeCategory(server.url, token, `Replicated ${n}`);
    // Litestream looks at the WAL every 250 ms and ships what it finds: in the replica within 1.5 s
    await replicaCaughtUp(server.dataDir, replica, "SELECT name FROM categories", { timeoutMs: 1500 });

    const restoredFolder = path.join(makeDataDir({ fromTemplate: false }), "from-replica");
    const restore = await runScript("restore", [replica, restoredFolder], {});
    expect(restore.code, restore.stderr + restore.stdout).toBe(0);
    expect(restore.stdout).toContain("integrity ok");
    const copy = new SQLite(path.join(restoredFolder, "app.db"), { readonly: true });
    const names = (copy.prepare("SELECT name FROM categories").all() as Array<{ name: string }>).map((row) => row.name);
    copy.close();
    for (let n = 0; n < 5; n++) expect(names).toContain(`Replicated ${n}`);
    expect(await server.stop()).toBe(0);

    // a new machine: an empty data folder and the same replica
    const fresh = await startTestServer({ dataDir: makeDataDir({ fromTemplate: false }), env: { LITESTREAM_REPLICA_URL: replica } });
    try {
      expect(fresh.output()).toContain("database restored from the replica");
      const restoredNames = await categoryNames(fresh.url);
      for (let n = 0; n < 5; n++) expect(restoredNames).toContain(`Replicated ${n}`);
    } finally {
      await fresh.stop();
    }
  }, 120_000);

  it("a shop restored from the replica on a new machine keeps its secrets: old sessions, tokens and unsubscribe links work", async () => {
    const replica = path.join(makeDataDir({ fromTemplate: false }), "replica");
    const server = await startTestServer({ env: { LITESTREAM_REPLICA_URL: replica } });
    const login = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    // a link of mail already sent, signed as the server signs it (decision 018) with this box's secret
    const { JWT_SECRET } = JSON.parse(fs.readFileSync(path.join(server.dataDir, "secrets.json"), "utf8")) as { JWT_SECRET: string };
    const key = Buffer.from(crypto.hkdfSync("sha256", JWT_SECRET, "", "unsubscribe links", 32));
    const userId = login.user.id;
    const unsubscribe = `/unsubscribe?token=${userId}.${crypto.createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url").slice(0, 22)}`;
    expect(await (await fetch(`${server.url}${unsubscribe}`)).text()).toContain(">Unsubscribe</button>");
    // Litestream has shipped the secrets, the session and the refresh token
    await replicaCaughtUp(server.dataDir, replica, SIGNED_IN);
    expect(await server.stop()).toBe(0);

    // the box is lost: a new machine, an empty data folder (no secrets.json), the same replica
    const fresh = await startTestServer({ dataDir: makeDataDir({ fromTemplate: false }), env: { LITESTREAM_REPLICA_URL: replica } });
    try {
      expect(fresh.output()).toContain("database restored from the replica");
      const me = await api(fresh.url, "/api/users/me", { token: login.accessToken });
      expect(me.status, JSON.stringify(me.body)).toBe(200);
      const refreshed = await api(fresh.url, "/api/auth/refresh-token", { body: { refreshToken: login.refreshToken } });
      expect(refreshed.status).toBe(200);
      const profile = await getPage(fresh.url, "/profile", cookie);
      expect(profile.status).toBe(200);
      expect(await profile.text()).toContain(TEST_ADMIN.email);
      const page = await fetch(`${fresh.url}${unsubscribe}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(">Unsubscribe</button>");
    } finally {
      await fresh.stop();
    }
  }, 120_000);

  it("stops Litestream with the server, also when the server is killed", async () => {
    const replica = path.join(makeDataDir({ fromTemplate: false }), "replica");
    const server = await startTestServer({ env: { LITESTREAM_REPLICA_URL: replica } });
    const litestreams = () => replicatingProcesses().length;
    const before = litestreams();
    expect(before).toBeGreaterThan(0);
    await server.stop("SIGKILL");
    // its watcher notices within a second or two
    await waitFor(() => litestreams() < before, {
      what: "Litestream stopping after its server was killed",
      timeoutMs: 5000,
      intervalMs: 100,
    });
    expect(litestreams()).toBeLessThan(before);
  }, 60_000);
});

/** Litestream binaries running `replicate` on this machine (from /proc). */
function replicatingProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (path.basename(argv[0]) === "litestream" && argv[1] === "replicate") pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
