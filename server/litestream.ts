/**
 * Continuous backup of the SQLite file with Litestream (docs/self-hosting.md, decision
 * 024): with LITESTREAM_REPLICA_URL set, the server runs `litestream replicate` beside
 * itself, which copies every change of the WAL to the replica within about a second, and
 * leaves the WAL's checkpoints to it (app/lib/db.server.ts). On a machine with an empty
 * data folder the server first restores the database from the replica.
 *
 * The replica is a folder (a path or file:///path) or an S3-compatible bucket
 * (s3://bucket/prefix, with `?endpoint=https://host&region=r&force-path-style=true` for a
 * store other than AWS; credentials from LITESTREAM_ACCESS_KEY_ID and
 * LITESTREAM_SECRET_ACCESS_KEY, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).
 *
 * The binary comes from the npm registry (@flydotio/litestream-linux-x64, an optional
 * dependency: Linux x64 only); elsewhere a `litestream` on the PATH is used.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** How often Litestream looks at the WAL and ships what it found: the most a crash can lose. */
export const SYNC_INTERVAL = "250ms";
/**
 * A full snapshot a day, and what it takes to restore any moment of the last three days
 * kept (older snapshots and WAL segments are removed): a replica holds about four
 * snapshots and three days of changes, whatever the restarts.
 */
export const SNAPSHOT_INTERVAL = "24h";
export const RETENTION = "72h";

/** The Litestream executable: the npm package's, else one on the PATH. */
export function litestreamBinary(): string {
  try {
    const manifest = createRequire(import.meta.url).resolve("@flydotio/litestream-linux-x64/package.json");
    const binary = path.join(path.dirname(manifest), "litestream");
    if (fs.existsSync(binary)) return binary;
  } catch {
    // not installed on this platform
  }
  return "litestream";
}

type Replica = Record<string, string>;

/** The replica's lines of a Litestream configuration, from LITESTREAM_REPLICA_URL's forms. */
export function replicaConfig(replicaUrl: string): Replica {
  const value = replicaUrl.trim();
  if (/^s3:\/\//i.test(value)) {
    const url = new URL(value);
    const replica: Replica = { url: `s3://${url.host}${url.pathname}` };
    const endpoint = url.searchParams.get("endpoint");
    const region = url.searchParams.get("region");
    if (endpoint) replica.endpoint = endpoint;
    if (region) replica.region = region;
    if (url.searchParams.get("force-path-style") === "true" || (endpoint && !url.searchParams.has("force-path-style")))
      replica["force-path-style"] = "true";
    if (url.searchParams.get("skip-verify") === "true") replica["skip-verify"] = "true";
    return replica;
  }
  if (/^file:\/\//i.test(value)) return { type: "file", path: fileURLToPath(value) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { url: value };
  return { type: "file", path: path.resolve(value) };
}

/**
 * Writes `file`, a configuration for one database and its replica (no secrets: Litestream
 * reads those from the environment), mode 600. Kept beside the database, not in the system's
 * temporary folder: a server killed before it could remove a temporary folder left one
 * behind at every start.
 */
export function writeConfig(databasePath: string, replicaUrl: string, file: string): string {
  const replica = {
    ...replicaConfig(replicaUrl),
    "sync-interval": SYNC_INTERVAL,
    "snapshot-interval": SNAPSHOT_INTERVAL,
    retention: RETENTION,
  };
  const lines = [
    "# written by the server at start (server/litestream.ts)",
    "dbs:",
    `  - path: ${JSON.stringify(path.resolve(databasePath))}`,
    `    monitor-interval: ${SYNC_INTERVAL}`,
    "    replicas:",
    ...Object.entries(replica).map(([key, value], n) => `${n === 0 ? "      - " : "        "}${key}: ${JSON.stringify(value)}`),
    "",
  ];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join("\n"), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/** Where the server keeps Litestream's configuration: beside the database (rewritten at every start). */
export const configFileOf = (databasePath: string) => path.join(path.dirname(path.resolve(databasePath)), ".litestream.yml");

/**
 * What a stop that never came (kill -9, a power cut) left in the data folder: a restore's
 * half-written database (`app.db.tmp-…`, Litestream writes there and renames at the end).
 * Removed at start, before anything reads the folder.
 */
export function removeLeftovers(databasePath: string): string[] {
  const folder = path.dirname(path.resolve(databasePath));
  const prefix = `${path.basename(databasePath)}.tmp`;
  const removed: string[] = [];
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
    if (!name.startsWith(prefix)) continue;
    fs.rmSync(path.join(folder, name), { force: true, recursive: true });
    removed.push(name);
  }
  return removed;
}

export type RestoreResult = { restored: boolean; output: string };

/**
 * Restores the database of `replicaUrl` to `outputPath` (which must not exist). With
 * `ifReplicaExists`, an empty replica is not an error (nothing restored).
 */
export function restoreFromReplica(replicaUrl: string, outputPath: string, options: { ifReplicaExists?: boolean } = {}): RestoreResult {
  // the configuration names the database Litestream replicated; any path does for a restore
  const placeholder = path.join(path.dirname(path.resolve(outputPath)), "replicated.db");
  const config = writeConfig(placeholder, replicaUrl, path.join(path.dirname(path.resolve(outputPath)), ".litestream-restore.yml"));
  try {
    const args = ["restore", "-config", config, "-o", path.resolve(outputPath)];
    if (options.ifReplicaExists) args.push("-if-replica-exists");
    const result = spawnSync(litestreamBinary(), [...args, placeholder], { encoding: "utf8" });
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? result.error.message : ""}`;
    if (result.status !== 0)
      throw new Error(
        `litestream restore failed (${result.status ?? result.error?.message}): ${output.trim().split("\n").slice(-3).join(" ")}`,
      );
    return { restored: fs.existsSync(outputPath), output };
  } finally {
    fs.rmSync(config, { force: true });
  }
}

export type Replication = { stop: () => Promise<void> };

/**
 * Litestream under a small shell that watches this process: if the server dies without a
 * stop (kill -9, a crash), Litestream is stopped too (after shipping what the WAL holds)
 * instead of going on alone, and a restart does not find two replicating one file.
 */
const WATCH = `
"$1" replicate -config "$2" & child=$!
trap 'kill -TERM $child 2>/dev/null; wait $child; exit 0' TERM INT
while kill -0 "$3" 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1 & wait $!; done
kill -TERM $child 2>/dev/null; wait $child`;

/**
 * Runs `litestream replicate` for the database until stop(); started again (after 5 s) if
 * it ends by itself. Its lines go to `log`.
 */
export function startReplication(
  databasePath: string,
  replicaUrl: string,
  log: { info: (line: string) => void; warn: (line: string) => void },
): Replication {
  const version = spawnSync(litestreamBinary(), ["version"], { encoding: "utf8" });
  if (version.status !== 0) {
    throw new Error(
      `LITESTREAM_REPLICA_URL is set but Litestream does not run here (${litestreamBinary()}: ${version.error?.message ?? version.stderr}); install it or unset the variable`,
    );
  }
  const config = writeConfig(databasePath, replicaUrl, configFileOf(databasePath));
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  const run = () => {
    const current = spawn("sh", ["-c", WATCH, "litestream", litestreamBinary(), config, String(process.pid)], {
      stdio: ["ignore", "pipe", "pipe"],
      // a process group of its own: a stop sent to the server's group (Ctrl-C, systemd's
      // default) must not end Litestream before the server has answered, written and
      // closed; the server stops it last (stop()), its watcher if the server dies
      detached: true,
    });
    child = current;
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        // its routine lines (every segment shipped) are not worth a log line each
        if (line.trim() && !/msg="(write wal segment|wal segment written)"/.test(line)) log.info(`litestream: ${line.trim()}`);
      }
    };
    current.stdout!.on("data", relay);
    current.stderr!.on("data", relay);
    current.on("error", (error) => log.warn(`litestream: could not run ${litestreamBinary()}: ${error.message}`));
    current.on("exit", (code, signal) => {
      if (stopping) return;
      log.warn(`litestream: replication ended (${signal ?? code}); starting it again in 5 s`);
      restartTimer = setTimeout(run, 5000);
      restartTimer.unref();
    });
  };
  run();
  log.info(`continuous backup: Litestream ${version.stdout.trim()} replicating ${databasePath} to ${replicaUrl}`);
  return {
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      const running = child;
      if (running && running.exitCode === null && running.signalCode === null) {
        // a stop lets it ship what the WAL still holds
        const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
        running.kill("SIGTERM");
        const late = setTimeout(() => running.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(late);
      }
    },
  };
}
