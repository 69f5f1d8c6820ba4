/**
 * The node arguments `npm start` runs the server with, read from package.json's start
 * script (`node <flags> scripts/start.mjs`), so the tests and the benchmark start it
 * exactly as `npm start` does.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export function startArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.trim().split(/\s+/);
  if (words[0] !== "node" || words.at(-1) !== "scripts/start.mjs") {
    throw new Error(`package.json: expected the start script to be "node [flags] scripts/start.mjs", found "${pkg.scripts.start}"`);
  }
  return [...words.slice(1, -1), path.join(ROOT, "scripts", "start.mjs")];
}
