/**
 * The node arguments `npm start` runs the server with, read from package.json's start
 * script (`exec node <flags> server/start.mjs`), so the tests and the benchmark start it
 * exactly as `npm start` does. (`exec`: npm runs the script with `sh -c`; the shell becomes
 * node instead of waiting for it, so a signal npm passes on reaches the server.)
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export function startArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.trim().split(/\s+/);
  if (words[0] !== "exec" || words[1] !== "node" || words.at(-1) !== "server/start.mjs") {
    throw new Error(`package.json: expected the start script to be "exec node [flags] server/start.mjs", found "${pkg.scripts.start}"`);
  }
  return [...words.slice(2, -1), path.join(ROOT, "server", "start.mjs")];
}
