/** `npm run backup` copies a live database consistently while another process writes. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { makeDataDir, runScript } from "../setup/server";

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
    await new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const target = path.join(dataDir, "backups", "copy.db");
    const result = await runScript("backup", [target], { DATA_DIR: dataDir });
    expect(result.stderr).not.toContain("failed");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("integrity ok");

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
