/**
 * This process among the app's instances: a name that no other instance, and no earlier
 * run of this one, carries (the host, the process and a random part). Jobs are leased to
 * it (app/services/jobs.server.ts).
 */
import crypto from "node:crypto";
import os from "node:os";

declare global {
  // one per process: the server and the Remix build each hold a copy of this module
  var __instanceId: string | undefined;
}

export function instanceId(): string {
  return (globalThis.__instanceId ??= `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`);
}
