/**
 * The README's backup and restore, as a self-hoster types it (issue 35): every npm command of
 * its "Backup and restore" section is read from README.md and run by bash, with only the
 * example folders changed to test folders (/srv/shop-data, /backups) and the example date to
 * the backup's. A shop is backed up while it runs (a backup file, the uploads, a Litestream
 * replica), restored into new folders, and started there with `DATA_DIR=… npm start`: the
 * data, the uploads and the old shop's tokens are there. The Docker commands of the same
 * section are run by .ci/container-check.sh.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { ROOT } from "../setup/paths";
import { replicaCaughtUp } from "../setup/replica";
import { childEnv, freePort, makeDataDir, startTestServer } from "../setup/server";

/** The inline commands of the README's "Backup and restore" section, in order. */
function backupSectionCommands(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Backup and restore");
  const end = readme.indexOf("**Upgrading**", start);
  expect(start, "README has a Backup and restore section").toBeGreaterThan(0);
  return [...readme.slice(start, end).matchAll(/`([^`]+)`/g)].map((match) => match[1]);
}

/** The one command of the section that starts with `prefix` (it must be there). */
function command(commands: string[], prefix: string): string {
  const found = commands.filter((text) => text.startsWith(prefix));
  expect(found, `README: one command starting with ${prefix}`).toHaveLength(1);
  return found[0];
}

/** Runs a README command with bash in the project folder, the example folders changed. */
async function runAsTyped(text: string, folders: { shop: string; backups: string }) {
  const line = text
    .replaceAll("/srv/shop-data", folders.shop)
    .replaceAll("/backups", folders.backups)
    // the restore steps name a backup of an example day: the one just made
    .replaceAll("2026-11-26", "$(date +%F)");
  const child = spawn("bash", ["-c", line], { cwd: ROOT, env: childEnv({}) });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, output, line };
}

/** `DATA_DIR=… npm start` as typed, in a process group of its own; stopped with SIGTERM to the group. */
async function npmStartAsTyped(text: string, shop: string) {
  const port = await freePort();
  const child = spawn("bash", ["-c", text.replaceAll("/srv/shop-data", shop)], {
    cwd: ROOT,
    env: childEnv({
      PORT: String(port),
      HOST: "127.0.0.1",
      RATES_URL: "http://127.0.0.1:9/closed.json",
      RATES_BACKUP_URL: "http://127.0.0.1:9/closed.json",
      LISTING_CHECKS_PER_HOUR: "0",
    }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !output.includes("listening on") && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(output).toContain("listening on");
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      process.kill(-child.pid!, "SIGTERM");
      return exited;
    },
  };
}

const categoryNames = async (url: string) =>
  ((await api(url, "/api/categories")).body.data as Array<{ name: string }>).map((category) => category.name);

describe("the README's backup and restore (npm)", () => {
  it("a backup file, the uploads and the replica of a running shop, restored as written: data, uploads and tokens kept", async () => {
    const commands = backupSectionCommands();
    const backups = path.join(makeDataDir({ fromTemplate: false }), "backups");
    fs.mkdirSync(backups);

    // the shop, replicating to the README's replica folder, with a category and an upload
    const shop = await startTestServer({ env: { LITESTREAM_REPLICA_URL: path.join(backups, "replica") } });
    const login = await apiLogin(shop.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const created = await api(shop.url, "/api/admin/categories", { token: login.accessToken, body: { name: "Kept by the README" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    fs.mkdirSync(path.join(shop.dataDir, "uploads", "readme"), { recursive: true });
    fs.writeFileSync(path.join(shop.dataDir, "uploads", "readme", "kept.txt"), "an uploaded file");
    const old = { shop: shop.dataDir, backups };

    // while it runs: the backup file and the uploads
    const backup = await runAsTyped(command(commands, "DATA_DIR=/srv/shop-data npm run backup -- "), old);
    expect(backup.code, `${backup.line}\n${backup.output}`).toBe(0);
    expect(backup.output).toContain("integrity ok");
    const tar = await runAsTyped(command(commands, "tar -C /srv/shop-data -czf "), old);
    expect(tar.code, `${tar.line}\n${tar.output}`).toBe(0);
    // Litestream ships within a second (the category, and the signing secrets the old tokens
    // need); the stop ships the rest
    await replicaCaughtUp(
      shop.dataDir,
      path.join(backups, "replica"),
      "SELECT 'category ' || name FROM categories UNION ALL SELECT 'secret ' || name FROM instance_secrets",
    );
    expect(await shop.stop()).toBe(0);

    // 2. restore (the backup file, and the replica, each into a new empty folder), 3. the uploads, 4. start
    for (const restoreCommand of [
      command(commands, "npm run restore -- /backups/shop-"),
      command(commands, "npm run restore -- /backups/replica "),
    ]) {
      const fresh = { shop: path.join(makeDataDir({ fromTemplate: false }), "shop-data"), backups };
      const restored = await runAsTyped(restoreCommand, fresh);
      expect(restored.code, `${restored.line}\n${restored.output}`).toBe(0);
      expect(restored.output).toContain("integrity ok");
      const untar = await runAsTyped(command(commands, "tar -C /srv/shop-data -xzf "), fresh);
      expect(untar.code, `${untar.line}\n${untar.output}`).toBe(0);
      expect(fs.readFileSync(path.join(fresh.shop, "uploads", "readme", "kept.txt"), "utf8")).toBe("an uploaded file");

      const started = await npmStartAsTyped(command(commands, "DATA_DIR=/srv/shop-data npm start"), fresh.shop);
      try {
        expect(await categoryNames(started.url)).toContain("Kept by the README");
        const me = await api(started.url, "/api/users/me", { token: login.accessToken });
        expect(me.status, JSON.stringify(me.body)).toBe(200);
      } finally {
        expect(await started.stop(), started.output()).toBe(0);
      }
    }
  }, 120_000);
});
