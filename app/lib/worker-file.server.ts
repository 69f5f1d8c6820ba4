/**
 * Worker threads' entries are compiled by scripts/build-server.mjs into build/server/<name>.js
 * (the campaign worker, decision 018; the photo worker, decision 050).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The compiled worker build/server/<name>.js, found from this module up to the project folder; null before any build. */
export function compiledWorkerFile(name: string): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  const file = path.join(dir, "build", "server", `${name}.js`);
  return fs.existsSync(file) ? file : null;
}
