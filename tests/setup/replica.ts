/**
 * What a Litestream replica holds (SQLite): a copy restored from it now, as the server and
 * `npm run restore` restore one (server/litestream.ts), read in a scratch folder. For
 * waiting until Litestream has shipped a write, instead of sleeping for its sync interval.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { restoreFromReplica } from "../../server/litestream";
import { TMP_ROOT } from "./paths";
import { waitFor } from "./wait";

/** The values of `query` (one column) in the SQLite file `file`. */
function values(file: string, query: string): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare(query).pluck().all() as unknown[]).map(String);
  } finally {
    db.close();
  }
}

/** The values of `query` (one column) in a copy restored from the replica now; none while it holds nothing. */
export function replicaValues(replica: string, query: string): string[] {
  const folder = fs.mkdtempSync(path.join(TMP_ROOT, "replica-check-"));
  try {
    const file = path.join(folder, "app.db");
    return restoreFromReplica(replica, file, { ifReplicaExists: true }).restored ? values(file, query) : [];
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Waits until the replica holds every value `query` (one column) finds in the server's
 * SQLite file of `dataDir` now: Litestream has shipped what the server wrote so far.
 */
export async function replicaCaughtUp(
  dataDir: string,
  replica: string,
  query: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const wanted = values(path.join(dataDir, "app.db"), query);
  let missing = wanted;
  let failure = "";
  await waitFor(
    () => {
      try {
        const held = new Set(replicaValues(replica, query));
        missing = wanted.filter((value) => !held.has(value));
        failure = "";
      } catch (error) {
        // a restore that met the replica mid-write: the next one reads it whole
        failure = (error as Error).message;
      }
      return !failure && missing.length === 0;
    },
    {
      what: `the replica ${replica} holding what the server wrote (${query})`,
      timeoutMs: options.timeoutMs,
      intervalMs: 100,
      detail: () => failure || `missing ${missing.join(", ")}`,
    },
  );
}
